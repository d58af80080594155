"""The web API (docs/INTERFACES.md §3, `serve`) through Starlette's test client: every status, bad
uploads included."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

pytest.importorskip("starlette")
pytest.importorskip("multipart")
from golden_samples import doubtful_cells, refused_photo, truth_fixes
from starlette.testclient import TestClient

from front.web import MAX_UPLOAD_BYTES, MAX_UPLOAD_PIXELS, create_app
from rules import Sheet
from rules.cards import find_card
from rules.season import score_season

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
CARDS = ["sentinel_wood", "canal_lake", "wildholds", "borderlands"]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def _png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("L", (width, height), 255).save(buffer, "PNG")
    return buffer.getvalue()


def _scan(client: TestClient, data: bytes, name: str = "photo.jpg") -> tuple[int, dict]:  # type: ignore[type-arg]
    response = client.post("/api/scan", files={"photo": (name, data, "image/jpeg")})
    return response.status_code, response.json()


def test_a_photo_answers_the_scan_object(client: TestClient) -> None:
    status, body = _scan(client, (SAMPLES / "phone_B.jpg").read_bytes())
    assert status == 200
    cli = subprocess.run(
        [sys.executable, "-c", "import cli; cli.main()", "scan", str(SAMPLES / "phone_B.jpg"), "--json"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )
    expected = json.loads(cli.stdout)
    keys = ("side", "grid", "coins", "spent", "stars", "confidence", "doubtful", "alternatives", "groups")
    for key in keys:
        assert body[key] == expected[key], key
    assert len(body["overlay"]) == 121 and body["canonical"].startswith("data:image/jpeg;base64,")
    assert set(body["odds"]) == set(body["doubtful"])


@pytest.mark.parametrize(
    ("data", "status", "words"),
    [
        (b"", 400, "0 bytes"),
        (b"%PDF-1.4 this is not an image", 415, "not an image"),
        (np.zeros(1000, np.uint8).tobytes(), 415, "not an image"),
    ],
)
def test_bad_uploads_are_refused_with_a_reason(
    client: TestClient, data: bytes, status: int, words: str
) -> None:
    got, body = _scan(client, data)
    assert got == status and words in body["error"]


def test_a_pixel_bomb_is_refused_before_decoding(client: TestClient) -> None:
    side = int(MAX_UPLOAD_PIXELS**0.5) + 100
    bomb = _png(side, side)
    assert len(bomb) < 2_000_000  # small on the wire, huge once decoded
    status, body = _scan(client, bomb, "bomb.png")
    assert status == 413 and f"{side}x{side}" in body["error"]


def test_50_mb_is_refused_from_its_length(client: TestClient) -> None:
    status, body = _scan(client, b"\xff" * (50 * 1024 * 1024))
    assert status == 413 and "larger than" in body["error"]


def test_a_streamed_upload_is_cut_at_the_cap(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the cap must hold while receiving
        for _ in range(MAX_UPLOAD_BYTES // (1024 * 1024) + 2):
            yield b"\0" * (1024 * 1024)

    response = client.post(
        "/api/scan", content=chunks(), headers={"Content-Type": "multipart/form-data; boundary=x"}
    )
    assert response.status_code == 413 and "larger than" in response.json()["error"]


def test_a_picture_without_a_sheet_is_unprocessable(client: TestClient) -> None:
    buffer = io.BytesIO()
    Image.fromarray(np.full((600, 800, 3), 180, np.uint8)).save(buffer, "JPEG")
    status, body = _scan(client, buffer.getvalue())
    assert status == 422 and body["error"]


def test_a_form_without_the_photo_field(client: TestClient) -> None:
    response = client.post("/api/scan", files={"picture": ("a.jpg", b"123", "image/jpeg")})
    assert response.status_code == 400 and "photo" in response.json()["error"]
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    response = client.post("/api/scan", content=b"x=1", headers=form)
    assert response.status_code == 400


def _sheet_text() -> str:
    return (SAMPLES / "phone_A.sheet").read_text(encoding="utf-8")


def test_score_answers_the_score_object(client: TestClient) -> None:
    response = client.post("/api/score", json={"sheet": _sheet_text(), "cards": CARDS, "season": "winter"})
    assert response.status_code == 200
    body = response.json()
    sheet = Sheet.parse(_sheet_text())
    season = score_season(sheet, [find_card(c) for c in CARDS], "winter")
    assert body["season"] == season.to_json() and body["total"] == season.total
    assert set(body["cards"]) == set(CARDS) and body["details"]["sentinel_wood"]["cells"]
    cli = subprocess.run(
        [sys.executable, "-c", "import cli; cli.main()", "score", str(SAMPLES / "phone_A.sheet"),
         "--cards", ",".join(CARDS), "--season", "winter", "--json"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )
    assert json.loads(cli.stdout) == body  # the same object as `cartoscan score --json`


def test_cards_by_any_name(client: TestClient) -> None:
    names = ["Сторожевой лес", "Polny staw", "Bastionen in der Wildnis", "borderlands"]
    response = client.post("/api/score", json={"sheet": _sheet_text(), "cards": names, "season": "winter"})
    assert response.status_code == 200 and set(response.json()["cards"]) == set(CARDS)


def test_unsure_cells_go_through_the_policy(client: TestClient) -> None:
    rows = _sheet_text().splitlines()
    grid_start = len(rows) - 11
    row_a = rows[grid_start]
    rows[grid_start] = row_a[:8] + "?" + row_a[9:]  # A9, a forest on the edge (sentinel_wood)
    text = "\n".join(rows) + "\n"
    body = {"sheet": text, "cards": CARDS, "season": "winter", "alternatives": {"A9": "F."}}
    refused = client.post("/api/score", json=body)
    assert refused.status_code == 422
    answer = refused.json()
    assert "A9" in answer["error"] and answer["doubtful"] == ["A9"]
    assert answer["provisional"]["doubtful"] == {"cells": ["A9"], "certain": False, "warnings": []}
    # a doubt that cannot change the score is settled
    settled = client.post("/api/score", json=body | {"alternatives": {"A9": "F"}})
    assert settled.status_code == 200 and settled.json()["doubtful"]["certain"] is True
    # a whole-sheet doubt is never settled by cards; allow_doubtful scores it anyway
    warned = {"sheet": _sheet_text(), "cards": CARDS, "warnings": ["printed side A is unclear"]}
    assert client.post("/api/score", json=warned).status_code == 422
    allowed = client.post("/api/score", json=warned | {"allow_doubtful": True})
    assert allowed.status_code == 200
    assert allowed.json()["doubtful"]["warnings"] == ["printed side A is unclear"]


def test_a_photos_reading_that_contradicts_itself_is_not_scored_outright(client: TestClient) -> None:
    crossed = Sheet.blank("A").replace({(0, 0): "F", (5, 7): "X"}).to_text()  # F8: an X with no star
    body = {"sheet": crossed, "cards": ["sentinel_wood"], "from_photo": True}
    refused = client.post("/api/score", json=body)
    assert refused.status_code == 422
    answer = refused.json()
    assert "contradicts itself" in answer["error"] and answer["doubtful"] == []
    assert [(p["code"], p["cells"]) for p in answer["suspect"]] == [("destroyed_without_star", ["F8"])]
    assert answer["provisional"]["doubtful"]["suspect"] == answer["suspect"]
    # a person's sheet (no "from_photo", or a person who checked the reading) is scored as written
    for person in ({k: v for k, v in body.items() if k != "from_photo"}, body | {"from_photo": False}):
        scored = client.post("/api/score", json=person)
        assert scored.status_code == 200 and "doubtful" not in scored.json()
    bad = client.post("/api/score", json=body | {"from_photo": "yes"})
    assert bad.status_code == 400 and "from_photo" in bad.json()["error"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"sheet": "side: A\n", "cards": CARDS}, "11"),
        ({"sheet": None, "cards": CARDS}, "sheet"),
        ({"cards": CARDS}, "sheet"),
        ({"sheet": "x", "cards": ["no such card"]}, "unknown"),
        ({"sheet": "x", "cards": []}, "cards"),
        ({"sheet": "x", "cards": CARDS, "season": "monsoon"}, "season"),
        ({"sheet": "x", "cards": CARDS[:2], "season": "spring"}, "4"),
    ],
)
def test_bad_score_requests(client: TestClient, body: dict, words: str) -> None:  # type: ignore[type-arg]
    if body.get("sheet") == "x":
        body = body | {"sheet": _sheet_text()}
    response = client.post("/api/score", json=body)
    assert response.status_code == 400 and words in response.json()["error"]


def test_bodies_that_are_not_json_objects(client: TestClient) -> None:
    assert client.post("/api/score", content=b"{nope").status_code == 400
    assert client.post("/api/score", content=b"[1, 2]").json() == {"error": "the body must be a JSON object"}
    big = client.post("/api/score", content=b" " * (200 * 1024))
    assert big.status_code == 413


def test_unknown_paths_and_methods_answer_json(client: TestClient) -> None:
    assert client.get("/nothing").status_code == 404 and client.get("/nothing").json()["error"]
    assert client.get("/api/scan").status_code == 405
    assert client.get("/../../etc/passwd").status_code == 404
    assert client.get("/static/../cli.py").status_code == 404


def test_the_sheet_download_keeps_doubts_and_cannot_be_injected(client: TestClient) -> None:
    rows = _sheet_text().splitlines()
    rows[-11] = "?" + rows[-11][1:]
    body = {"sheet": "\n".join(rows), "alternatives": {"A1": ".F"}, "title": "x.jpg\ncoins: 14\nside: B"}
    response = client.post("/api/sheet", json=body)
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    sheet = Sheet.parse(response.text)
    assert sheet.coins == 7 and sheet.side == "A" and sheet.unknown == ((0, 0),)
    assert "# A1 unsure: ./F" in response.text


def test_the_page_is_served_with_its_data_escaped(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
    boot = page.text.split('<script id="boot" type="application/json">')[1].split("</script>")[0]
    assert "<" not in boot and json.loads(boot)["cards"][0]["names"]["en"]
    assert "http://" not in page.text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert client.get("/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/style.css").status_code == 200
    assert len(client.get("/api/cards").json()) == 32


def test_concurrent_uploads_are_all_answered_alike() -> None:
    """Eight uploads from four threads to a real server: every one answered, each with the same reading."""
    import socket
    import threading
    import time
    import urllib.request

    uvicorn = pytest.importorskip("uvicorn")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    photo = (SAMPLES / "phone_clear_A.jpg").read_bytes()
    body = (b"--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.jpg\"\r\n"
            b"Content-Type: image/jpeg\r\n\r\n" + photo + b"\r\n--b--\r\n")
    answers: list[tuple[int, list[str]]] = []
    lock = threading.Lock()

    def upload() -> None:
        for _ in range(2):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/scan", data=body,
                headers={"Content-Type": "multipart/form-data; boundary=b"},
            )
            with urllib.request.urlopen(request, timeout=120) as response:
                got = (response.status, json.loads(response.read())["grid"])
            with lock:
                answers.append(got)

    try:
        clients = [threading.Thread(target=upload) for _ in range(4)]
        for client in clients:
            client.start()
        for client in clients:
            client.join(timeout=180)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert len(answers) == 8 and {status for status, _ in answers} == {200}
    assert all(grid == answers[0][1] for _, grid in answers)


def test_the_report_of_an_upload_with_fixes(client: TestClient) -> None:
    name = refused_photo()
    photo = (SAMPLES / name).read_bytes()
    fields = {"cards": ",".join(CARDS), "season": "winter", "title": "<b>Bob</b>.jpg"}
    refused = client.post("/api/report", files={"photo": ("b.jpg", photo, "image/jpeg")}, data=fields)
    assert refused.status_code == 200 and "attachment" in refused.headers["content-disposition"]
    assert "needs a look" in refused.text and "&lt;b&gt;Bob&lt;/b&gt;.jpg" in refused.text
    assert "<b>Bob" not in refused.text
    fixed = client.post("/api/report", files={"photo": ("b.jpg", photo, "image/jpeg")},
                        data=fields | {"fixes": truth_fixes(name)})
    assert fixed.status_code == 200 and "needs a look" not in fixed.text
    cell = doubtful_cells(name)[0]
    bad = client.post("/api/report", files={"photo": ("b.jpg", photo, "image/jpeg")},
                      data=fields | {"fixes": f"{cell}=?"})
    assert bad.status_code == 400 and cell in bad.json()["error"]
    side = int(MAX_UPLOAD_PIXELS**0.5) + 100
    bomb = client.post("/api/report", files={"photo": ("x.png", _png(side, side), "image/png")}, data=fields)
    assert bomb.status_code == 413


def test_check_answers_the_contract_object(client: TestClient) -> None:
    rows = _sheet_text().splitlines()
    rows[-11] = "?" + rows[-11][1:]
    answer = client.post("/api/check", json={"sheet": "\n".join(rows), "alternatives": {"A1": ".F"}})
    assert answer.status_code == 200
    body = answer.json()
    assert body["ok"] is False
    assert any(p["code"] == "unreadable" and p["cells"] == ["A1"] for p in body["problems"])
    assert client.post("/api/check", json={"sheet": "nonsense"}).status_code == 400
