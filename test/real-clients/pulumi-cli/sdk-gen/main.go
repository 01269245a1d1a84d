// Command sdk-gen writes the TypeScript, Python or Go SDK of a Pulumi package schema, as `pulumi
// package add` does through Pulumi's Node.js, Python or Go language host: those hosts are modules of
// their own that the Go module proxy does not serve, and their SDK step is this call of Pulumi's own
// generator (pkg/v3/codegen/nodejs, pkg/v3/codegen/python, pkg/v3/codegen/go), which is served.
// Test-side only.
//
//	sdk-gen nodejs|python|go <schema.json> <output directory>
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noExternalPackages answers every request for another package's schema with an error: a bridged
// provider's schema refers only to itself.
type noExternalPackages struct{}

var errExternal = errors.New("the schema refers to another package; only self-contained schemas are supported")

func (noExternalPackages) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errExternal
}

func (noExternalPackages) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errExternal
}

func (noExternalPackages) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errExternal
}

func (noExternalPackages) LoadPackageReferenceV2(
	context.Context, *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, errExternal
}

func main() {
	if len(os.Args) != 4 || (os.Args[1] != "nodejs" && os.Args[1] != "python" && os.Args[1] != "go") {
		fmt.Fprintln(os.Stderr, "usage: sdk-gen nodejs|python|go <schema.json> <output directory>")
		os.Exit(2)
	}
	if err := generate(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintf(os.Stderr, "sdk-gen: %v\n", err)
		os.Exit(1)
	}
}

func generate(language, schemaPath, outDir string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	loader := noExternalPackages{}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	// As `pulumi package add` does for every language: the SDK is a local package (for Go, a module of
	// its own with its go.mod).
	pkg.SupportPack = true
	var files map[string][]byte
	switch language {
	case "nodejs":
		// local: the SDK is used from a folder beside the program, as `pulumi package add` makes it.
		files, err = nodejs.GeneratePackage("pulumi-language-nodejs", pkg, nil, nil, true, loader)
	case "go":
		files, err = gogen.GeneratePackage("pulumi-language-go", pkg, nil)
	default:
		files, err = python.GeneratePackage("pulumi-language-python", pkg, nil, loader)
	}
	if err != nil {
		return err
	}
	for name, content := range files {
		path := filepath.Join(outDir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
