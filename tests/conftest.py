"""Shared test settings: hypothesis profile sized for a 2-core CI machine."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "book", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("book")
