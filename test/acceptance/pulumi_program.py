"""One Pulumi operation on a Python program that uses the SDK Pulumi's Python generator wrote from the
bridge's schema of our provider, run by Pulumi's Automation API (an inline program: the pulumi package
serves the language runtime in this process, so Pulumi's Python language host, which the Go module
proxy does not serve, is not needed). Started by pulumi-python.test.ts, one process per operation:

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
    # A secret argument from config, and a list.
    chat = sec.AlertChannelChat(
        "chat",
        name="python-chat",
        webhook_url=pulumi.Config().require_secret("chatWebhookUrl"),
    )
    email = sec.AlertChannelEmail(
        "email", name="python-email", recipients=["security@example.com", "oncall@example.com"]
    )
    # One resource's output as another's input.
    rule = sec.AlertRule(
        "rule", name="python-rule", severities=["Critical", "High"], alert_channels=[email.intg_guid]
    )
    pulumi.export("chat", chat.intg_guid)
    pulumi.export("email", email.intg_guid)
    pulumi.export("rule", rule.guid)


def vdb_program():
    vdb = importlib.import_module("pulumi_vdb")
    # A function's result as an argument, and nested blocks three deep.
    packages = vdb.get_booking_packages_output(cloud_provider="aws", cloud_region="eu-central-1")
    small = packages.packages.apply(lambda found: next(p.id for p in found if p.name == "small"))
    cluster = vdb.AccountsCluster(
        "cluster",
        name="python-cluster",
        cloud_provider="aws",
        cloud_region="eu-central-1",
        configuration={
            "number_of_nodes": 1,
            "node_configuration": {
                "package_id": small,
                "resource_configurations": [{"amount": 20, "resource_type": "disk", "resource_unit": "Gi"}],
            },
        },
    )
    role = vdb.AccountsRole(
        "role",
        name="python-role",
        description="Create and restore backups",
        permissions=[{"value": "read:clusters"}, {"value": "read:backups"}],
    )
    # A computed secret.
    key = vdb.AccountsDatabaseApiKeyV2("key", cluster_id=cluster.id, name="python-key")
    pulumi.export("cluster", cluster.id)
    pulumi.export("role", role.id)
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
    elif RUN["op"] == "destroy":
        summary = stack.destroy(on_output=log).summary.resource_changes
    outputs = {name: output.value for name, output in stack.outputs().items()}
    print(json.dumps({"summary": {str(k): v for k, v in (summary or {}).items()}, "outputs": outputs}))


if __name__ == "__main__":
    main()
