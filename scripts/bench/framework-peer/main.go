// Command terraform-provider-fwemail is the benchmark's plugin-framework peer: a Go provider on
// terraform-plugin-framework, the provider a team would write instead of ours, managing what
// sec_alert_channel_email manages with the same API calls (see ../against-go.ts). It is built and
// run by the benchmark only; nothing of it ships.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
)

func main() {
	err := providerserver.Serve(context.Background(), newProvider, providerserver.ServeOpts{
		Address: "registry.terraform.io/keel/fwemail",
	})
	if err != nil {
		log.Fatal(err)
	}
}
