"""The `recon` command and the local Dagster instance it runs on.

- `main`: the command line (`recon run`, `recon explain`);
- `run`: `recon run`: pre-checks, then the three jobs launched on the local instance, and the summary;
- `launched_runs`: a job launched through the code location (`dagster job launch`) and its run followed on the instance;
- `instance_health`: a run whose run worker is gone is failed and its pool slots freed (Dagster's run monitoring cannot
  see the DefaultRunLauncher's workers);
- `interrupts`: Ctrl-C and SIGTERM end a command in one line, exit 130 (143), at any moment (the standard library only);
- `launch_checks`: the pydantic rules of a run's settings, checked before it is launched;
- `dagster.yaml`, `workspace.yaml`: the instance settings `recon run` puts in DAGSTER_HOME and the code location it
  launches through (the checkout's `dagster.yaml` and `workspace.yaml` link here).
"""
