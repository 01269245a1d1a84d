terraform {
  required_providers {
    sec = {
      source = "keel/sec"
    }
  }
}

# Account, API key and secret come from SEC_ACCOUNT, SEC_API_KEY and SEC_API_SECRET.
provider "sec" {}

# A token for this run only: made from the provider's key and secret, never stored in the state.
ephemeral "sec_access_token" "run" {
  lifetime_seconds = 900
}

# A second provider instance that holds only the short-lived token.
provider "sec" {
  alias     = "short_lived"
  api_token = ephemeral.sec_access_token.run.token
}

resource "sec_alert_channel_email" "via_token" {
  provider   = sec.short_lived
  name       = "example-access-token"
  recipients = ["security@example.com"]
}
