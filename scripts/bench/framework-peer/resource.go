package main

import (
	"context"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The resource as sec_alert_channel_email declares it: the same attributes, defaults and checks.
type emailChannel struct{ client *secClient }

type emailChannelModel struct {
	ID                   types.String `tfsdk:"id"`
	Name                 types.String `tfsdk:"name"`
	Enabled              types.Bool   `tfsdk:"enabled"`
	TestIntegration      types.Bool   `tfsdk:"test_integration"`
	IntgGUID             types.String `tfsdk:"intg_guid"`
	OrgLevel             types.Bool   `tfsdk:"org_level"`
	TypeName             types.String `tfsdk:"type_name"`
	CreatedOrUpdatedBy   types.String `tfsdk:"created_or_updated_by"`
	CreatedOrUpdatedTime types.String `tfsdk:"created_or_updated_time"`
	Recipients           types.List   `tfsdk:"recipients"`
}

// Its identity, as ours declares it: the GUID, required to import by identity.
type emailChannelIdentity struct {
	ID types.String `tfsdk:"id"`
}

func newEmailChannel() resource.Resource { return &emailChannel{} }

var (
	_ resource.ResourceWithConfigure   = &emailChannel{}
	_ resource.ResourceWithImportState = &emailChannel{}
	_ resource.ResourceWithIdentity    = &emailChannel{}
)

func (r *emailChannel) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{RequiredForImport: true,
				Description: "The integration GUID of the channel (`intg_guid`)."},
		},
	}
}

// setIdentity records the channel's identity beside its state, as every create, read and update must.
func setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, guid string) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, emailChannelIdentity{ID: types.StringValue(guid)})
}

func (r *emailChannel) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_alert_channel_email"
}

func (r *emailChannel) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		Description: "Sends platform alerts by e-mail (the sec provider's sec_alert_channel_email, on the plugin framework).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keep,
				Description: "The integration GUID of the channel (the same as `intg_guid`)."},
			"name": schema.StringAttribute{Required: true, Validators: []validator.String{notBlank{}},
				Description: "The alert channel integration name."},
			"enabled": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				Description: "State of the integration: whether alerts are sent to it."},
			"test_integration": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				Description: "Whether to test the channel on creation and modification."},
			"intg_guid": schema.StringAttribute{Computed: true, PlanModifiers: keep,
				Description: "The unique identifier of the integration."},
			"org_level": schema.BoolAttribute{Computed: true,
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
				Description:   "Whether the channel belongs to the organization rather than one account."},
			"type_name": schema.StringAttribute{Computed: true, PlanModifiers: keep,
				Description: "The platform type of the integration."},
			"created_or_updated_by":   schema.StringAttribute{Computed: true, Description: "Who last created or changed the channel."},
			"created_or_updated_time": schema.StringAttribute{Computed: true, Description: "When the channel was last created or changed."},
			"recipients": schema.ListAttribute{Required: true, ElementType: types.StringType,
				Validators:  []validator.List{emailList{}},
				Description: "E-mail addresses that receive alerts. Surrounding whitespace is ignored."},
		},
	}
}

func (r *emailChannel) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if client, ok := req.ProviderData.(*secClient); ok {
		r.client = client
	}
}

func (r *emailChannel) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan emailChannelModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	created, err := r.client.createChannel(ctx, inputOf(ctx, plan))
	if err != nil {
		resp.Diagnostics.AddError("Create of fwemail_alert_channel_email failed", err.Error())
		return
	}
	if plan.TestIntegration.ValueBool() {
		if err := r.client.testChannel(ctx, created.IntgGUID); err != nil {
			_ = r.client.deleteChannel(ctx, created.IntgGUID)
			resp.Diagnostics.AddError("The new alert channel failed its test and was removed", err.Error())
			return
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, modelOf(ctx, created, plan.TestIntegration, plan.Recipients))...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, created.IntgGUID)...)
}

func (r *emailChannel) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state emailChannelModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	found, err := r.client.getChannel(ctx, state.ID.ValueString())
	if isNotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Read of fwemail_alert_channel_email failed", err.Error())
		return
	}
	test := state.TestIntegration
	if test.IsNull() {
		test = types.BoolValue(true)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, modelOf(ctx, found, test, state.Recipients))...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, found.IntgGUID)...)
}

func (r *emailChannel) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state emailChannelModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	updated, err := r.client.updateChannel(ctx, state.ID.ValueString(), inputOf(ctx, plan))
	if err != nil {
		resp.Diagnostics.AddError("Update of fwemail_alert_channel_email failed", err.Error())
		return
	}
	if plan.TestIntegration.ValueBool() {
		if err := r.client.testChannel(ctx, updated.IntgGUID); err != nil {
			resp.Diagnostics.AddError("The alert channel failed its test", err.Error())
			return
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, modelOf(ctx, updated, plan.TestIntegration, plan.Recipients))...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, updated.IntgGUID)...)
}

func (r *emailChannel) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state emailChannelModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.client.deleteChannel(ctx, state.ID.ValueString()); err != nil && !isNotFound(err) {
		resp.Diagnostics.AddError("Delete of fwemail_alert_channel_email failed", err.Error())
	}
}

// ImportState takes the GUID from the import's id or from its identity.
func (r *emailChannel) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughWithIdentity(ctx, path.Root("id"), path.Root("id"), req, resp)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("test_integration"), true)...)
}

func inputOf(ctx context.Context, plan emailChannelModel) channelInput {
	var recipients []string
	plan.Recipients.ElementsAs(ctx, &recipients, false)
	for i, r := range recipients {
		recipients[i] = strings.TrimSpace(r)
	}
	return channelInput{Name: plan.Name.ValueString(), Enabled: plan.Enabled.ValueBool(), Recipients: recipients}
}

// modelOf is the state of a channel as the API answered it. The recipients as written (plan or
// prior state) are kept where they differ from the answer only by surrounding whitespace.
func modelOf(ctx context.Context, c *apiChannel, test types.Bool, written types.List) emailChannelModel {
	answered := c.Data.ChannelProps.Recipients
	var kept []string
	written.ElementsAs(ctx, &kept, false)
	same := len(kept) == len(answered)
	for i := 0; same && i < len(kept); i++ {
		same = strings.TrimSpace(kept[i]) == answered[i]
	}
	if !same {
		kept = answered
	}
	recipients := make([]attr.Value, len(kept))
	for i, r := range kept {
		recipients[i] = types.StringValue(r)
	}
	return emailChannelModel{
		ID:                   types.StringValue(c.IntgGUID),
		Name:                 types.StringValue(c.Name),
		Enabled:              types.BoolValue(bool(c.Enabled)),
		TestIntegration:      test,
		IntgGUID:             types.StringValue(c.IntgGUID),
		OrgLevel:             types.BoolValue(bool(c.IsOrg)),
		TypeName:             types.StringValue(c.Type),
		CreatedOrUpdatedBy:   types.StringValue(c.CreatedOrUpdatedBy),
		CreatedOrUpdatedTime: types.StringValue(c.CreatedOrUpdatedTime),
		Recipients:           types.ListValueMust(types.StringType, recipients),
	}
}

// The sec rules: a name is not blank; recipients are one or more e-mail addresses.
type notBlank struct{}

func (notBlank) Description(context.Context) string         { return "must not be blank" }
func (notBlank) MarkdownDescription(context.Context) string { return "must not be blank" }
func (notBlank) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !req.ConfigValue.IsNull() && !req.ConfigValue.IsUnknown() && strings.TrimSpace(req.ConfigValue.ValueString()) == "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value", "The value must not be blank.")
	}
}

var emailAddress = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

type emailList struct{}

func (emailList) Description(context.Context) string         { return "one or more e-mail addresses" }
func (emailList) MarkdownDescription(context.Context) string { return "one or more e-mail addresses" }
func (emailList) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if len(req.ConfigValue.Elements()) == 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid value", "At least one recipient is required.")
	}
	for i, element := range req.ConfigValue.Elements() {
		text, ok := element.(types.String)
		if !ok || text.IsNull() || text.IsUnknown() {
			continue
		}
		if !emailAddress.MatchString(strings.TrimSpace(text.ValueString())) {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Invalid value", "Not an e-mail address.")
		}
	}
}
