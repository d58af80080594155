"""onnxruntime queues a usage-telemetry event per session unless told not to: loading the models
switches it off (issue 12)."""

from __future__ import annotations

from typing import Any

import onnxruntime as ort

from scanner.nets import load_models


def test_loading_the_models_disables_onnxruntime_telemetry(monkeypatch: Any) -> None:
    calls: list[str] = []
    monkeypatch.setattr(ort, "disable_telemetry_events", lambda: calls.append("off"))
    load_models()
    assert calls == ["off"]
