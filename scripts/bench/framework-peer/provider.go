package main

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The provider block of sec: every setting optional, the environment filling what is not set.
type fwProvider struct{}

type providerSettings struct {
	Account      types.String `tfsdk:"account"`
	APIKey       types.String `tfsdk:"api_key"`
	APISecret    types.String `tfsdk:"api_secret"`
	APIToken     types.String `tfsdk:"api_token"`
	Organization types.Bool   `tfsdk:"organization"`
	Profile      types.String `tfsdk:"profile"`
	Subaccount   types.String `tfsdk:"subaccount"`
}

func newProvider() provider.Provider { return &fwProvider{} }

func (p *fwProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "fwemail"
	resp.Version = "0.1.0"
}

func (p *fwProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"account":      schema.StringAttribute{Optional: true, Description: "Account subdomain. Environment: `SEC_ACCOUNT`."},
			"api_key":      schema.StringAttribute{Optional: true, Sensitive: true, Description: "API access key. Environment: `SEC_API_KEY`."},
			"api_secret":   schema.StringAttribute{Optional: true, Sensitive: true, Description: "API access secret. Environment: `SEC_API_SECRET`."},
			"api_token":    schema.StringAttribute{Optional: true, Sensitive: true, Description: "A pre-issued access token. Environment: `SEC_API_TOKEN`."},
			"organization": schema.BoolAttribute{Optional: true, Description: "Organization-level data sets. Environment: `SEC_ORGANIZATION`."},
			"profile":      schema.StringAttribute{Optional: true, Description: "Profile name (not read by this provider)."},
			"subaccount":   schema.StringAttribute{Optional: true, Description: "Sub-account. Environment: `SEC_SUBACCOUNT`."},
		},
	}
}

func (p *fwProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var settings providerSettings
	resp.Diagnostics.Append(req.Config.Get(ctx, &settings)...)
	if resp.Diagnostics.HasError() {
		return
	}
	or := func(value types.String, variable string) string {
		if !value.IsNull() && !value.IsUnknown() {
			return value.ValueString()
		}
		return os.Getenv(variable)
	}
	extra := map[string]string{}
	if sub := or(settings.Subaccount, "SEC_SUBACCOUNT"); sub != "" {
		extra["Account-Name"] = sub
	}
	if settings.Organization.ValueBool() || os.Getenv("SEC_ORGANIZATION") == "true" {
		extra["Org-Access"] = "true"
	}
	client, err := newSecClient(os.Getenv("SEC_API_URL"), or(settings.APIKey, "SEC_API_KEY"),
		or(settings.APISecret, "SEC_API_SECRET"), or(settings.APIToken, "SEC_API_TOKEN"),
		"terraform-provider-fwemail/0.1.0 (Terraform "+req.TerraformVersion+")", extra)
	if err != nil {
		resp.Diagnostics.AddError("Invalid provider configuration", err.Error())
		return
	}
	resp.ResourceData = client
}

func (p *fwProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{newEmailChannel}
}

func (p *fwProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
