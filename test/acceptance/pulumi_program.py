"""One Pulumi operation on a Python program that uses the SDK Pulumi's Python generator wrote from the
bridge's schema of our provider, run by Pulumi's Automation API (an inline program: the pulumi package
serves the language runtime in this process, so Pulumi's Python language host, which the Go module
proxy does not serve, is not needed). Started by pulumi-python.test.ts, one process per operation; what the programs make is in
pulumi-objects.ts, which the YAML, TypeScript and Go programs share:

    KEEL_PULUMI_RUN='{"op":"up",...}' python3 test/acceptance/pulumi_program.py

Prints one JSON line: the operation's change summary and the stack's outputs (secrets in plain text).
"""

import importlib
import json
import os
import sys

import pulumi
from pulumi import automation as auto

RUN = json.loads(os.environ["KEEL_PULUMI_RUN"])


def sec_program():
    sec = importlib.import_module("pulumi_sec")
    prefix, stage, config = RUN["prefix"], RUN["stage"], pulumi.Config()
    # A secret argument from config, and a list; the channel is renamed in place at stage 2.
    chat = sec.AlertChannelChat(
        "chat", name=f"{prefix}-chat", webhook_url=config.require_secret("chatWebhookUrl")
    )
    email = sec.AlertChannelEmail(
        "email",
        name=f"{prefix}-email" if stage == 1 else f"{prefix}-email-renamed",
        recipients=["security@example.com", "oncall@example.com"],
    )
    # A nested block and a set of nested objects; switching the credentials from a role to an access
    # key (a secret from config) replaces the integration at stage 2.
    registry = sec.IntegrationRegistryA(
        "registry",
        name=f"{prefix}-registry",
        registry_domain="123456789012.registry-a.us-west-2.example.com",
        credentials=(
            {
                "role_arn": "arn:cloud-a:iam::123456789012:role/sec-registry-reader",
                "external_id": f"{prefix}-external-id",
            }
            if stage == 1
            else {"access_key_id": "AKEXAMPLE0123456789", "secret_access_key": config.require_secret("registrySecret")}
        ),
        limit_by_tags=["prod-*"],
        limit_by_labels=[{"key": "team", "value": "payments"}],
    )
    # One resource's output as another's input.
    rule = sec.AlertRule(
        "rule", name=f"{prefix}-rule", severities=["Critical", "High"], alert_channels=[email.intg_guid]
    )
    pulumi.export("chat", chat.intg_guid)
    pulumi.export("email", email.intg_guid)
    pulumi.export("registry", registry.intg_guid)
    pulumi.export("rule", rule.guid)


def vdb_program():
    vdb = importlib.import_module("pulumi_vdb")
    prefix, stage = RUN["prefix"], RUN["stage"]
    # A function's result as an argument, and nested blocks three deep.
    packages = vdb.get_booking_packages_output(cloud_provider="aws", cloud_region="eu-central-1")
    small = packages.packages.apply(lambda found: next(p.id for p in found if p.name == "small"))
    cluster = vdb.AccountsCluster(
        "cluster",
        name=f"{prefix}-cluster",
        cloud_provider="aws",
        cloud_region="eu-central-1",
        labels=[{"key": "team", "value": "search"}],
        configuration={
            "number_of_nodes": 1,
            "allowed_ip_source_ranges": ["10.0.0.0/8"],
            "node_configuration": {
                "package_id": small,
                "resource_configurations": [{"amount": 20, "resource_type": "disk", "resource_unit": "Gi"}],
            },
            "database_configuration": {"collection": {"replication_factor": 1}},
        },
    )
    # A set given unsorted; the description changes in place at stage 2.
    role = vdb.AccountsRole(
        "role",
        name=f"{prefix}-role",
        description="Create and restore backups" if stage == 1 else "Create, list and restore backups",
        permissions=[{"value": "read:clusters"}, {"value": "read:backups"}],
    )
    # A computed secret; renaming the key replaces it at stage 2.
    key = vdb.AccountsDatabaseApiKeyV2(
        "key",
        cluster_id=cluster.id,
        name=f"{prefix}-key" if stage == 1 else f"{prefix}-key-renamed",
        collection_access_rules=[
            {"collection_name": "documents", "access_type": "COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY"}
        ],
    )
    pulumi.export("cluster", cluster.id)
    pulumi.export("role", role.id)
    pulumi.export("permissions", role.permissions.apply(lambda ps: [p.value for p in ps]))
    pulumi.export("key", key.id)
    pulumi.export("keySecret", key.key)


def main():
    sys.path.insert(0, RUN["sdk"])
    project = f"keel-py-{RUN['provider']}"
    stack = auto.create_or_select_stack(
        stack_name="test",
        project_name=project,
        program=sec_program if RUN["provider"] == "sec" else vdb_program,
        opts=auto.LocalWorkspaceOptions(
            work_dir=RUN["workDir"],
            pulumi_command=auto.PulumiCommand(root=RUN["pulumiRoot"], skip_version_check=True),
            project_settings=auto.ProjectSettings(
                name=project,
                runtime="python",
                backend=auto.ProjectBackend(url=f"file://{RUN['workDir']}/state"),
            ),
            env_vars=RUN["env"],
        ),
    )
    for key, value in RUN.get("secrets", {}).items():
        stack.set_config(key, auto.ConfigValue(value=value, secret=True))
    log = lambda text: sys.stderr.write(text + "\n")
    summary = None
    if RUN["op"] == "up":
        summary = stack.up(on_output=log).summary.resource_changes
    elif RUN["op"] == "preview":
        summary = stack.preview(expect_no_changes=True, on_output=log).change_summary
    elif RUN["op"] == "refresh":
        summary = stack.refresh(expect_no_changes=True, on_output=log).summary.resource_changes
    elif RUN["op"] == "destroy":
        summary = stack.destroy(on_output=log).summary.resource_changes
    outputs = {name: output.value for name, output in stack.outputs().items()}
    print(json.dumps({"summary": {str(k): v for k, v in (summary or {}).items()}, "outputs": outputs}))


if __name__ == "__main__":
    main()
