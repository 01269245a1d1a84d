// Command pulumi-go runs one Pulumi operation on a Go program that uses the SDKs Pulumi's Go generator
// writes from the bridge's schema of our providers, through Pulumi's Automation API: an inline
// program, which runs in this process, so Pulumi's Go language host (not served by the Go module
// proxy) is not needed. Started by pulumi-go.test.ts, once per operation:
//
//	KEEL_PULUMI_RUN='{"op":"up",...}' ./pulumi-go
//
// It prints one JSON line: the operation's change summary and the stack's outputs (secrets in plain
// text). The SDKs sit in ./sdks/<name>, with the `replace` lines `pulumi package add` writes in a Go
// project (go.mod). What the programs make is in pulumi-objects.ts, which the YAML, Python and
// TypeScript programs share. Test-side only.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi-terraform-provider/sdks/go/sec/v2/sec"
	"github.com/pulumi/pulumi-terraform-provider/sdks/go/vdb/vdb"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// run is what the test asks for.
type run struct {
	Op         string            `json:"op"`
	Provider   string            `json:"provider"`
	Stage      int               `json:"stage"`
	Prefix     string            `json:"prefix"`
	WorkDir    string            `json:"workDir"`
	PulumiRoot string            `json:"pulumiRoot"`
	Secrets    map[string]string `json:"secrets"`
	Env        map[string]string `json:"env"`
}

// stagedName is the name of an object that stage 2 renames in place or by replacement.
func (r run) stagedName(object string) string {
	if r.Stage == 2 {
		return r.Prefix + "-" + object + "-renamed"
	}
	return r.Prefix + "-" + object
}

// secProgram: a secret argument from config, a list, a nested block switching between two forms (which
// replaces the integration at stage 2), a set of nested objects, and one resource's output as
// another's input; the e-mail channel is renamed in place at stage 2.
func secProgram(r run) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		conf := config.New(ctx, "")
		chat, err := sec.NewAlertChannelChat(ctx, "chat", &sec.AlertChannelChatArgs{
			Name:       pulumi.String(r.Prefix + "-chat"),
			WebhookUrl: conf.RequireSecret("chatWebhookUrl"),
		})
		if err != nil {
			return err
		}
		email, err := sec.NewAlertChannelEmail(ctx, "email", &sec.AlertChannelEmailArgs{
			Name:       pulumi.String(r.stagedName("email")),
			Recipients: pulumi.StringArray{pulumi.String("security@example.com"), pulumi.String("oncall@example.com")},
		})
		if err != nil {
			return err
		}
		credentials := sec.IntegrationRegistryACredentialsArgs{
			RoleArn:    pulumi.String("arn:cloud-a:iam::123456789012:role/sec-registry-reader"),
			ExternalId: pulumi.String(r.Prefix + "-external-id"),
		}
		if r.Stage == 2 {
			credentials = sec.IntegrationRegistryACredentialsArgs{
				AccessKeyId:     pulumi.String("AKEXAMPLE0123456789"),
				SecretAccessKey: conf.RequireSecret("registrySecret"),
			}
		}
		registry, err := sec.NewIntegrationRegistryA(ctx, "registry", &sec.IntegrationRegistryAArgs{
			Name:           pulumi.String(r.Prefix + "-registry"),
			RegistryDomain: pulumi.String("123456789012.registry-a.us-west-2.example.com"),
			Credentials:    credentials,
			LimitByTags:    pulumi.StringArray{pulumi.String("prod-*")},
			LimitByLabels: sec.IntegrationRegistryALimitByLabelArray{
				sec.IntegrationRegistryALimitByLabelArgs{Key: pulumi.String("team"), Value: pulumi.String("payments")},
			},
		})
		if err != nil {
			return err
		}
		rule, err := sec.NewAlertRule(ctx, "rule", &sec.AlertRuleArgs{
			Name:          pulumi.String(r.Prefix + "-rule"),
			Severities:    pulumi.StringArray{pulumi.String("Critical"), pulumi.String("High")},
			AlertChannels: pulumi.StringArray{email.IntgGuid},
		})
		if err != nil {
			return err
		}
		ctx.Export("chat", chat.IntgGuid)
		ctx.Export("email", email.IntgGuid)
		ctx.Export("registry", registry.IntgGuid)
		ctx.Export("rule", rule.Guid)
		return nil
	}
}

// vdbProgram: a data source's result as an argument, nested blocks three deep, a set of nested
// objects (the role's permissions, given unsorted), and a computed secret; the role's description
// changes in place and the key's name (which replaces it) at stage 2.
func vdbProgram(r run) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		packages := vdb.GetBookingPackagesOutput(ctx, vdb.GetBookingPackagesOutputArgs{
			CloudProvider: pulumi.String("aws"),
			CloudRegion:   pulumi.String("eu-central-1"),
		})
		small := packages.Packages().ApplyT(func(found []vdb.GetBookingPackagesPackage) (string, error) {
			for _, p := range found {
				if p.Name == "small" {
					return p.Id, nil
				}
			}
			return "", fmt.Errorf("no \"small\" booking package")
		}).(pulumi.StringOutput)
		cluster, err := vdb.NewAccountsCluster(ctx, "cluster", &vdb.AccountsClusterArgs{
			Name:          pulumi.String(r.Prefix + "-cluster"),
			CloudProvider: pulumi.String("aws"),
			CloudRegion:   pulumi.String("eu-central-1"),
			Labels: vdb.AccountsClusterLabelArray{
				vdb.AccountsClusterLabelArgs{Key: pulumi.String("team"), Value: pulumi.String("search")},
			},
			Configuration: vdb.AccountsClusterConfigurationArgs{
				NumberOfNodes:         pulumi.Float64(1),
				AllowedIpSourceRanges: pulumi.StringArray{pulumi.String("10.0.0.0/8")},
				NodeConfiguration: vdb.AccountsClusterConfigurationNodeConfigurationArgs{
					PackageId: small,
					ResourceConfigurations: vdb.AccountsClusterConfigurationNodeConfigurationResourceConfigurationArray{
						vdb.AccountsClusterConfigurationNodeConfigurationResourceConfigurationArgs{
							Amount:       pulumi.Float64(20),
							ResourceType: pulumi.String("disk"),
							ResourceUnit: pulumi.String("Gi"),
						},
					},
				},
				DatabaseConfiguration: vdb.AccountsClusterConfigurationDatabaseConfigurationArgs{
					Collection: vdb.AccountsClusterConfigurationDatabaseConfigurationCollectionArgs{
						ReplicationFactor: pulumi.Float64(1),
					},
				},
			},
		})
		if err != nil {
			return err
		}
		description := "Create and restore backups"
		if r.Stage == 2 {
			description = "Create, list and restore backups"
		}
		role, err := vdb.NewAccountsRole(ctx, "role", &vdb.AccountsRoleArgs{
			Name:        pulumi.String(r.Prefix + "-role"),
			Description: pulumi.String(description),
			Permissions: vdb.AccountsRolePermissionArray{
				vdb.AccountsRolePermissionArgs{Value: pulumi.String("read:clusters")},
				vdb.AccountsRolePermissionArgs{Value: pulumi.String("read:backups")},
			},
		})
		if err != nil {
			return err
		}
		key, err := vdb.NewAccountsDatabaseApiKeyV2(ctx, "key", &vdb.AccountsDatabaseApiKeyV2Args{
			ClusterId: cluster.ID(),
			Name:      pulumi.String(r.stagedName("key")),
			CollectionAccessRules: vdb.AccountsDatabaseApiKeyV2CollectionAccessRuleArray{
				vdb.AccountsDatabaseApiKeyV2CollectionAccessRuleArgs{
					CollectionName: pulumi.String("documents"),
					AccessType:     pulumi.String("COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY"),
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("cluster", cluster.ID())
		ctx.Export("role", role.ID())
		ctx.Export("permissions", role.Permissions.ApplyT(func(ps []vdb.AccountsRolePermission) []string {
			values := make([]string, len(ps))
			for i, p := range ps {
				values[i] = p.Value
			}
			return values
		}))
		ctx.Export("key", key.ID())
		ctx.Export("keySecret", key.Key)
		return nil
	}
}

func main() {
	if err := operate(); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-go: %v\n", err)
		os.Exit(1)
	}
}

func operate() error {
	var r run
	if err := json.Unmarshal([]byte(os.Getenv("KEEL_PULUMI_RUN")), &r); err != nil {
		return fmt.Errorf("KEEL_PULUMI_RUN: %w", err)
	}
	var program pulumi.RunFunc
	switch r.Provider {
	case "sec":
		program = secProgram(r)
	case "vdb":
		program = vdbProgram(r)
	default:
		return fmt.Errorf("no program for provider %q", r.Provider)
	}
	ctx := context.Background()
	command, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: r.PulumiRoot, SkipVersionCheck: true})
	if err != nil {
		return err
	}
	project := "keel-go-" + r.Provider
	stack, err := auto.UpsertStackInlineSource(ctx, "test", project, program,
		auto.Pulumi(command),
		auto.WorkDir(r.WorkDir),
		auto.Project(workspace.Project{
			Name:    tokens.PackageName(project),
			Runtime: workspace.NewProjectRuntimeInfo("go", nil),
			Backend: &workspace.ProjectBackend{URL: "file://" + r.WorkDir + "/state"},
		}),
		auto.EnvVars(r.Env),
	)
	if err != nil {
		return err
	}
	for name, value := range r.Secrets {
		if err := stack.SetConfig(ctx, name, auto.ConfigValue{Value: value, Secret: true}); err != nil {
			return err
		}
	}
	var summary any
	switch r.Op {
	case "up":
		result, err := stack.Up(ctx, optup.ProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		summary = result.Summary.ResourceChanges
	case "preview":
		result, err := stack.Preview(ctx, optpreview.ExpectNoChanges(), optpreview.ProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		summary = result.ChangeSummary
	case "refresh":
		result, err := stack.Refresh(ctx, optrefresh.ExpectNoChanges(), optrefresh.ProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		summary = result.Summary.ResourceChanges
	case "destroy":
		result, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		summary = result.Summary.ResourceChanges
	default:
		return fmt.Errorf("no operation %q", r.Op)
	}
	outputs, err := stack.Outputs(ctx)
	if err != nil {
		return err
	}
	values := map[string]any{}
	for name, output := range outputs {
		values[name] = output.Value
	}
	line, err := json.Marshal(map[string]any{"summary": summary, "outputs": values})
	if err != nil {
		return err
	}
	fmt.Println(string(line))
	return nil
}
