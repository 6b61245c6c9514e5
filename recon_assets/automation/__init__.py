"""Automation on top of the asset graph: the jobs (`jobs`), the schedules that launch them (`schedules`) and the
sensor that requests a refresh when the KG export changes (`kg_source_sensor`), and the one that requests a paper's
analysis for each new PDF of the papers folder (`paper_folder_sensor`)."""
