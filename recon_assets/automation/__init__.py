"""Automation on top of the asset graph: the jobs (`jobs`), the schedules that launch them (`schedules`) and the
sensor that requests a refresh when the KG export changes (`kg_source_sensor`)."""
