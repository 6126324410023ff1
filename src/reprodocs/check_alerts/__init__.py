"""``python -m reprodocs check-alerts``: the registry checked against the
code that raises. Torch raises an alert where an operation has no
deterministic implementation; the registry says, for each operation, what
``torch.use_deterministic_algorithms(True)`` does to it and names its
alerts (``:alert:``). The command reads both and reports where they disagree.

- :mod:`~reprodocs.check_alerts.scan`: the alerts a source raises (one pass over its bytes)
- :mod:`~reprodocs.check_alerts.ties`: the alerts torch's tests expect of an operation
- :mod:`~reprodocs.check_alerts.registry`: the registry, read from nondeterministic.json
- :mod:`~reprodocs.check_alerts.compare`: the findings (pure)
- :mod:`~reprodocs.check_alerts.suggest`: each entry's alerts, where tests or a call tie them (for migrate)
- :mod:`~reprodocs.check_alerts.formats`: text, JSON, GitHub annotations
- :mod:`~reprodocs.check_alerts.command`: arguments, files, ignore rules, exit status
"""
