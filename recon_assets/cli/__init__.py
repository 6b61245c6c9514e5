"""The `recon` command and the local Dagster instance it runs on.

- `main`: the command line (`recon run`, `recon explain`);
- `run`: `recon run`, a thin wrapper over Dagster's own execution of the jobs on the local instance;
- `instance_health`: runs whose process is gone are marked failed and their pool slots freed;
- `launch_checks`: the instance's run coordinator, refusing a run whose settings break a rule;
- `dagster.yaml`: the instance settings `recon run` puts in DAGSTER_HOME (the checkout's `dagster.yaml` links here).
"""
