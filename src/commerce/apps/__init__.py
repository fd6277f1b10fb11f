"""The applications that play many games with bots: :mod:`~commerce.apps.simulate`,
:mod:`~commerce.apps.tournament`, the analyses (:mod:`~commerce.apps.analysis`,
:mod:`~commerce.apps.threshold`)."""
