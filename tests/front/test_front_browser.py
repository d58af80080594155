"""The page in a real browser (Debian's Chromium, headless, driven by Playwright): upload a bundled
sample, fix its doubtful cells (the cells drawn alike in the same tap), see the total change, download
the sheet.  Screenshots go to $CARTOSCAN_SHOTS when set (docs/ keeps the ones looked at)."""

from __future__ import annotations

import json
import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)

import httpx2 as httpx  # noqa: E402  (the web extra's client, as starlette's TestClient takes it)
import uvicorn  # noqa: E402
from golden_samples import refused_photo  # noqa: E402

from front.web import create_app  # noqa: E402
from rules import Sheet  # noqa: E402
from rules.cards import find_card  # noqa: E402
from rules.season import score_season  # noqa: E402
from scanner.pipeline import Reading, read_photo  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CARDS = ["sentinel_wood", "canal_lake", "wildholds", "borderlands"]
NAMES = ["Сторожевой лес", "Polny staw", "Bastionen in der Wildnis", "Borderlands"]  # any language
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]
SHOTS = os.environ.get("CARTOSCAN_SHOTS")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running.started, "the test server did not start"
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright_api.sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1200, "height": 900}, accept_downloads=True,
        )
        yield context
        context.close()


def _shot(page: object, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)  # type: ignore[attr-defined]


PHOTO = refused_photo()  # a bundled photo whose doubts change its score (golden file)


def _truth(label: str) -> str:
    sheet = Sheet.parse((SAMPLES / PHOTO).with_suffix(".sheet").read_text(encoding="utf-8"))
    r, c = ord(label[0]) - ord("A"), int(label[1:]) - 1
    return str(sheet[r, c])


def _upload(page: object, server: str) -> None:
    """Open the page, name the four cards (in several languages) and winter, upload the photo and wait
    for its score."""
    page.goto(server + "/")  # type: ignore[attr-defined]
    for letter, name in zip("ABCD", NAMES, strict=True):
        page.fill(f"#card-{letter}", name)  # type: ignore[attr-defined]
    page.select_option("#season", "winter")  # type: ignore[attr-defined]
    page.set_input_files("#upload", str(SAMPLES / PHOTO))  # type: ignore[attr-defined]
    page.wait_for_selector("#total")  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [390, 1200])
def test_upload_fix_and_download(server: str, browser: object, width: int, tmp_path: Path) -> None:
    reading = read_photo(SAMPLES / PHOTO)
    assert isinstance(reading, Reading) and len(reading.doubtful) >= 2
    page = browser.new_page()  # type: ignore[attr-defined]
    page.set_viewport_size({"width": width, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    _upload(page, server)
    assert "needs a look" in page.text_content("#banner")
    before = int(page.text_content("#total"))
    for label in reading.doubtful:
        assert page.get_attribute(f"#c-{label}", "class").split().count("doubt") == 1
    _shot(page, f"page_{width}_doubtful.png")

    taps = 0
    fixed: dict[str, str] = {}
    while "needs a look" in page.text_content("#banner"):
        open_cells = [c for c in reading.doubtful if c not in fixed]
        label = open_cells[0]
        page.click(f"#c-{label}")
        taps += 1
        assert page.is_visible("#picker")
        if taps == 1:
            _shot(page, f"page_{width}_picker.png")
        offered = (page.get_attribute("#alike", "data-peers") or "").split()
        peers = [p for p in offered if _truth(p) == _truth(label)]
        for p in offered:
            assert page.is_checked(f"#alike input[data-cell='{p}']")  # offered ticked
            if _truth(p) != _truth(label):
                page.uncheck(f"#alike input[data-cell='{p}']")  # holds something else: left for later
                taps += 1
        symbol = _truth(label)
        page.click(f"#choices button[data-symbol='{symbol}'], #others button[data-symbol='{symbol}']")
        taps += 1
        for cell in [label, *peers]:
            fixed[cell] = _truth(label)
        page.wait_for_function(
            "n => !document.querySelector('#c-' + n).classList.contains('doubt')",
            arg=label,
        )
        page.wait_for_timeout(300)  # the score request after the fix
    assert fixed and taps <= 2 * len(reading.doubtful)
    after = int(page.text_content("#total"))
    assert "scored" in page.text_content("#banner")
    fixes = {(ord(k[0]) - 65, int(k[1:]) - 1): v for k, v in fixed.items()}
    cards = [find_card(c) for c in CARDS]
    expected = score_season(reading.uncertain.fix(fixes).guess, cards, "winter").total
    assert after == expected
    assert "provisional" not in page.text_content("#total-row") and before != 0
    _shot(page, f"page_{width}_fixed.png")

    # any cell can be corrected: a forest on the map's edge, read surely, made water costs Sentinel Wood
    # (edict A) its point; the page's new total is the rules' score of the corrected sheet
    edge = next((r, c) for r in range(11) for c in range(11)
                if (r in (0, 10) or c in (0, 10)) and str(reading.sheet[r, c]) == "F"
                and _truth("ABCDEFGHIJK"[r] + str(c + 1)) == "F")
    label = "ABCDEFGHIJK"[edge[0]] + str(edge[1] + 1)
    page.click(f"#c-{label}")
    page.click("#others button[data-symbol='W'], #choices button[data-symbol='W']")
    fixed[label] = "W"
    page.wait_for_function("n => document.querySelector('#total').textContent !== String(n)", arg=after)
    changed = reading.uncertain.fix({**fixes, edge: "W"}).guess
    corrected = score_season(changed, cards, "winter").total
    assert corrected != after and int(page.text_content("#total")) == corrected

    page.click("#score tbody tr:first-child")  # a card's cells highlighted
    assert page.locator("svg .hl").count() > 0
    with page.expect_download() as download_info:
        page.click("#download")
    path = tmp_path / "map.sheet"
    download_info.value.save_as(path)
    sheet = Sheet.parse(path.read_text(encoding="utf-8"))
    for label, terrain in fixed.items():
        assert str(sheet[ord(label[0]) - 65, int(label[1:]) - 1]) == terrain
    assert download_info.value.suggested_filename == Path(PHOTO).with_suffix(".sheet").name
    with page.expect_download() as report_info:
        page.click("#report")
    report = tmp_path / "report.html"
    report_info.value.save_as(report)
    html = report.read_text(encoding="utf-8")
    assert report_info.value.suggested_filename == Path(PHOTO).with_suffix(".html").name and PHOTO in html
    assert f"total <strong>{corrected}</strong>" in html  # the fixes, the edge cell's included, in the report
    assert not errors, errors
    page.close()


def test_a_bad_upload_says_why(server: str, browser: object, tmp_path: Path) -> None:
    bad = tmp_path / "<b>notes<b>.jpg"
    bad.write_bytes(b"this is text, not a photo")
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(server + "/")
    page.set_input_files("#upload", str(bad))
    page.wait_for_function("() => document.querySelector('#status').classList.contains('error')")
    assert "not an image" in page.text_content("#status")
    assert page.locator("b").count() == 0  # the file name is text, never markup
    page.close()


def test_a_reading_that_contradicts_itself_needs_a_look_until_checked(server: str, browser: object) -> None:
    """The page weighs what it read as a photo's reading: an X with no hit star (here drawn into the
    scan's answer on a surely empty space) keeps it from being scored once every unsure cell is fixed,
    until the person says they checked it on the sheet."""
    reading = read_photo(SAMPLES / PHOTO)
    assert isinstance(reading, Reading) and not reading.stars and not reading.doubts
    blank = next((r, c) for r in range(11) for c in range(11)
                 if str(reading.sheet[r, c]) == "." and _truth("ABCDEFGHIJK"[r] + str(c + 1)) == ".")
    crossed = "ABCDEFGHIJK"[blank[0]] + str(blank[1] + 1)

    photo = (SAMPLES / PHOTO).read_bytes()
    scanned = httpx.post(server + "/api/scan", files={"photo": (PHOTO, photo, "image/jpeg")}, timeout=60)
    body = scanned.json()
    for layer in body["overlay"]:
        if layer["cell"] == crossed:
            layer["symbol"] = "X"

    def cross(route: object) -> None:  # the page's upload answered with the altered reading
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))  # type: ignore[attr-defined]

    page = browser.new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.route("**/api/scan", cross)
    _upload(page, server)
    for label in reading.doubtful:  # every unsure cell fixed to the truth, alone
        page.click(f"#c-{label}")
        for tick in page.query_selector_all("#alike input:checked"):  # each cell on its own
            tick.uncheck()
        symbol = _truth(label)
        page.click(f"#choices button[data-symbol='{symbol}'], #others button[data-symbol='{symbol}']")
        fixed = "n => !document.querySelector('#c-' + n).classList.contains('doubt')"
        page.wait_for_function(fixed, arg=label)
    page.wait_for_function("() => document.querySelector('#warnings').textContent.includes('contradicts')")
    banner = page.text_content("#banner")
    assert "needs a look" in banner and "destroyed_without_star" in banner and crossed in banner
    assert "provisional" in page.text_content("#total-row")
    _shot(page, "page_contradiction.png")
    page.click("#warnings li:last-child button")  # "I checked it on the sheet"
    page.wait_for_function("() => !document.querySelector('#banner').classList.contains('refused')")
    assert "scored" in page.text_content("#banner") and "contradicts" not in page.text_content("#warnings")
    assert not errors, errors
    page.close()


def test_each_look_alike_is_offered_on_its_own_tick(server: str, browser: object) -> None:
    """Fixing a doubtful cell offers the unsure cells drawn like it, each ticked: the person unticks the
    one that holds something else, the others take the same answer, the unticked one stays framed."""
    reading = read_photo(SAMPLES / PHOTO)
    assert isinstance(reading, Reading)
    truths = {label: _truth(label) for label in reading.doubtful}
    label = next(c for c in reading.doubtful  # a cell with a look-alike like it and one unlike it
                 if any(truths[o] == truths[c] for o in truths if o != c)
                 and any(truths[o] != truths[c] for o in truths))
    photo = (SAMPLES / PHOTO).read_bytes()
    body = httpx.post(server + "/api/scan", files={"photo": (PHOTO, photo, "image/jpeg")}, timeout=60).json()
    body["groups"] = [sorted(truths)]  # every unsure cell drawn alike, whatever each holds

    def grouped(route: object) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))  # type: ignore[attr-defined]

    page = browser.new_page()  # type: ignore[attr-defined]
    page.set_viewport_size({"width": 390, "height": 860})  # a phone: the ticks must fit its width
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.route("**/api/scan", grouped)
    _upload(page, server)
    page.click(f"#c-{label}")
    offered = (page.get_attribute("#alike", "data-peers") or "").split()
    assert sorted(offered) == sorted(set(truths) - {label})
    unlike = [p for p in offered if truths[p] != truths[label]]
    for p in unlike:
        page.uncheck(f"#alike input[data-cell='{p}']")
    _shot(page, "page_alike_ticks.png")
    symbol = truths[label]
    page.click(f"#choices button[data-symbol='{symbol}'], #others button[data-symbol='{symbol}']")
    page.wait_for_function("n => !document.querySelector('#c-' + n).classList.contains('doubt')", arg=label)
    for p in offered:
        framed = "doubt" in page.get_attribute(f"#c-{p}", "class").split()
        assert framed == (p in unlike), p
    assert not errors, errors
    page.close()
