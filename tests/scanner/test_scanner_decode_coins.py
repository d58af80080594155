"""scanner.decode, coin track: a first "empty" coin darker than the sheet's empty coins is a doubt; so are
marks the net sees past a coin it sees clearly empty; a run of marks the sheet's own coins do not show
is the print misread; twin marks read as different kinds are doubts; twin marks read as one kind share
their sureness of it; the count is read by the net and the sheet together, and the track is doubted as
a whole (scanner.classify.read_coin_track).

Synthetic coin patches: a printed coin (a light disc with a darker rim) on a coloured band; a player's
mark is a dark ring with a dot (a mark the coin net never saw in training).
"""

from __future__ import annotations

import numpy as np
import pytest

import scanner.classify as classify
from scanner.constants import (
    COIN_BEYOND_EMPTY,
    COIN_BEYOND_MARKS,
    COIN_BEYOND_SEEN,
    COIN_CLASSES,
    COIN_CROSS_SEEN,
    COIN_DISC,
    COIN_FAINT_MARK,
    COIN_KIND_ALIKE,
    COIN_THRESHOLD,
    COIN_TRACK_THRESHOLD,
    PATCH,
)
from scanner.decode import (
    _suffix_medians,
    both_counts,
    clashing_kinds,
    coin_ink,
    coin_paper,
    coins_and_spent,
    count_against_print,
    decode_coin_track,
    faint_marks_gained,
    kinds_of_alike_marks,
    marks_beyond_run,
    odd_gain_mark,
    overrule_print,
    spent_against_kinds,
    track_counts,
    track_sureness,
    unseen_marks,
)

BAND = np.array([120.0, 200.0, 140.0])  # BGR green band
COIN = np.array([90.0, 230.0, 250.0])  # light yellow print
RIM = np.array([40.0, 150.0, 200.0])
GRAPHITE = np.array([60.0, 60.0, 60.0])


def _coin(marked: bool, *, shade: float = 1.0, dx: int = 0, noise: float = 0.0,
          rng: np.random.Generator | None = None) -> np.ndarray:
    yy, xx = np.mgrid[:PATCH, :PATCH] - (PATCH - 1) / 2.0
    r = np.hypot(yy, xx - dx)
    img = np.where((r <= 8.5)[..., None], COIN, BAND)
    img = np.where(((r > 8.5) & (r <= 9.6))[..., None], RIM, img)
    if marked:
        img = np.where(((r > 9.0) & (r <= 11.5))[..., None], GRAPHITE, img)
        img = np.where((r <= 3.0)[..., None], GRAPHITE, img)
    img = img * shade
    if noise and rng is not None:
        img = img + rng.normal(0.0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _track(marked: int, *, shades: np.ndarray | None = None, noise: float = 0.0, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    shades = np.ones(14) if shades is None else shades
    return np.stack([_coin(i < marked, shade=float(shades[i]), noise=noise, rng=rng) for i in range(14)])


def _states(n: int) -> np.ndarray:
    return np.array([1] * n + [0] * (14 - n))


@pytest.mark.parametrize(("marked", "read"), [(1, 0), (3, 2), (5, 3), (12, 11)])
def test_a_mark_read_as_empty_is_flagged_at_the_first_empty_coin(marked: int, read: int) -> None:
    flags = unseen_marks(_track(marked), _states(read))
    assert flags.tolist() == [i == read for i in range(14)]


@pytest.mark.parametrize("marked", [0, 1, 4, 9, 12])
def test_a_right_reading_is_not_flagged(marked: int) -> None:
    assert not unseen_marks(_track(marked), _states(marked)).any()


def test_shade_along_the_track_is_not_taken_for_ink() -> None:
    # a shadow darkens the left of the track to 55 % of the right; each coin is scaled by its own paper
    shades = np.linspace(0.55, 1.0, 14)
    assert not unseen_marks(_track(2, shades=shades), _states(2)).any()
    assert unseen_marks(_track(3, shades=shades), _states(2))[2]


def test_noise_alone_does_not_make_a_mark() -> None:
    assert not unseen_marks(_track(3, noise=80.0), _states(3)).any()
    assert unseen_marks(_track(4, noise=80.0), _states(3))[3]


@pytest.mark.parametrize("read", [13, 14])
def test_nothing_is_flagged_without_empty_coins_after_the_first_empty_one(read: int) -> None:
    # the last coin has no empty coins after it to compare with
    assert not unseen_marks(_track(14), _states(read)).any()


def test_coin_paper_cancels_shade() -> None:
    bright, dark = coin_paper(np.stack([_coin(False), _coin(False, shade=0.5)]))
    assert np.abs(bright - dark).max() < 0.03
    assert bright[0, 0].mean() == pytest.approx(1.0, abs=0.05)  # the band's paper maps to about 1


def test_coin_ink_is_zero_for_the_reference_look_even_a_pixel_off() -> None:
    empty, shifted, marked = coin_paper(np.stack([_coin(False), _coin(False, dx=1), _coin(True)]))
    ink = coin_ink(np.stack([empty, shifted, marked]), empty)
    assert ink[0] == 0.0
    assert ink[1] < 0.02
    assert ink[2] > 0.3
    assert coin_ink(shifted[None], empty, shift=0)[0] > ink[1]  # without the shift tolerance it is ink


def _ink_by_rolls(paper: np.ndarray, reference: np.ndarray, shift: int) -> float:
    """coin_ink of one coin written out shift by shift with np.roll, the definition to match."""
    inside = np.hypot(*(np.mgrid[:PATCH, :PATCH] - (PATCH - 1) / 2.0)) <= COIN_DISC * PATCH / 2.0
    best = np.inf
    for dy in range(-shift, shift + 1):
        for dx in range(-shift, shift + 1):
            moved = np.roll(paper, (dy, dx), axis=(0, 1))
            dark = np.clip(reference - moved, 0.0, None).sum(axis=-1)
            best = min(best, float(dark[inside].mean()))
    return best


@pytest.mark.parametrize("shift", [0, 1, 2])
def test_coin_ink_equals_the_rolled_definition_coin_by_coin(shift: int) -> None:
    track = coin_paper(_track(5, noise=30.0, seed=shift))
    references = track[np.random.default_rng(shift).permutation(14)]
    shared = coin_ink(track, track[9], shift=shift)
    own = coin_ink(track, references, shift=shift)
    for i in range(14):
        assert shared[i] == _ink_by_rolls(track[i], track[9], shift)
        assert own[i] == _ink_by_rolls(track[i], references[i], shift)
        assert own[i] == coin_ink(track[i : i + 1], references[i], shift=shift)[0]


def test_classify_sheet_reports_an_unseen_mark_as_a_doubtful_coin(monkeypatch: pytest.MonkeyPatch) -> None:
    # the net reads every coin as a confident empty, but the first two coins carry a mark
    def confident_empty(
        models: object, patches: np.ndarray, *, gain: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        return np.tile([0.98, 0.01, 0.01], (len(patches), 1)), np.zeros((len(patches), 4))

    monkeypatch.setattr(classify, "read_coins", confident_empty)
    cells = np.full((11, 11, PATCH, PATCH, 3), 235, np.uint8)
    reading = classify.classify_sheet(cells, "A", coin_patches=_track(2))
    assert reading.coins == 0
    assert reading.doubtful_coins == (0,)
    sure = classify.classify_sheet(cells, "A", coin_patches=_track(0))
    assert sure.doubtful_coins == ()


def _looks(marked: int, *, seed: int = 0, spread: float = 0.02) -> np.ndarray:
    """Coin features: ``marked`` coins near one mark look, the rest near one print look."""
    rng = np.random.default_rng(seed)
    mark, print_ = np.eye(8)[0], np.eye(8)[1]
    f = np.array([mark if i < marked else print_ for i in range(14)])
    return f + rng.normal(0.0, spread, f.shape)


@pytest.mark.parametrize("marked", [0, 1, 4, 9, 13])
def test_the_track_count_is_read_from_how_its_coins_look_against_each_other(marked: int) -> None:
    count = count_against_print(_looks(marked))
    assert count.shape == (15,) and count.sum() == pytest.approx(1.0)
    assert int(np.argmax(count)) == marked
    assert count[marked] > 0.99
    assert count[14] == 0.0  # a full track has no printed coin left to compare with


def test_a_net_that_reads_the_print_as_marks_is_overruled_by_the_sheet() -> None:
    probs = np.tile([0.005, 0.99, 0.005], (14, 1))  # the net: every coin filled
    states = np.full(14, 1)
    conf = probs[:, 1].copy()
    count = count_against_print(_looks(2))
    new_states, new_conf = overrule_print(states, conf, probs, count)
    assert new_states.tolist() == [1, 1] + [0] * 12
    assert (new_conf > COIN_THRESHOLD).all()
    kind = np.sqrt(0.99) / (np.sqrt(0.99) + np.sqrt(0.005))  # the default softening, a square root
    assert new_conf[0] == pytest.approx((1 - count[0]) * kind)
    assert states.tolist() == [1] * 14  # the inputs are left as they were


def test_on_an_overruled_track_a_mark_of_doubtful_kind_is_doubted() -> None:
    probs = np.tile([0.01, 0.9, 0.09], (14, 1))  # filled rather than crossed, by 10 to 1
    states, conf = np.full(14, 1), np.full(14, 0.9)
    count = count_against_print(_looks(2))
    _, trusting = overrule_print(states, conf, probs, count, kind_temperature=1.0)
    _, wary = overrule_print(states, conf, probs, count)
    assert (trusting[:2] > COIN_THRESHOLD).all()
    assert (wary[:2] < COIN_THRESHOLD).all()


def test_a_net_run_no_longer_than_the_sheet_count_is_left_alone() -> None:
    probs = np.tile([0.95, 0.04, 0.01], (14, 1))
    probs[:2] = [0.02, 0.9, 0.08]
    states = np.array([1, 1] + [0] * 12)
    conf = probs[np.arange(14), states]
    for marked in (2, 3):  # the same run, or a longer one the net missed (unseen_marks' business)
        got_states, got_conf = overrule_print(states, conf, probs, count_against_print(_looks(marked)))
        assert got_states is states and got_conf is conf


def test_classify_sheet_reads_a_print_the_net_calls_marked_by_its_own_coins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    every_coin_filled = np.tile([0.02, 0.95, 0.03], (14, 1))
    monkeypatch.setattr(classify, "read_coins",
                        lambda models, patches, gain=None: (every_coin_filled, _looks(3)))
    cells = np.full((11, 11, PATCH, PATCH, 3), 235, np.uint8)
    reading = classify.classify_sheet(cells, "A", coin_patches=_track(3))
    assert reading.coins == 3
    assert reading.doubtful_coins == ()
    raw = classify.classify_sheet(cells, "A", coin_patches=_track(3), decode=False)
    assert raw.coins == 14


def _marks(kinds: list[int], *, seed: int = 0, spread: float = 0.02) -> np.ndarray:
    """Coin features of a track: a mark look per kind given (1 filled, 2 crossed), the print after."""
    rng = np.random.default_rng(seed)
    looks = {1: np.eye(8)[0], 2: np.eye(8)[2], 0: np.eye(8)[1]}
    f = np.array([looks[k] for k in kinds + [0] * (14 - len(kinds))])
    return f + rng.normal(0.0, spread, f.shape)


def test_twin_marks_read_as_different_kinds_are_both_doubted() -> None:
    # three coins marked alike; the net calls the second crossed: which kind is wrong is not known
    states = np.array([1, 2, 1] + [0] * 11)
    flags = clashing_kinds(_marks([1, 1, 1]), states)
    assert flags.tolist() == [True, True, True] + [False] * 11


def test_a_spent_coin_that_looks_crossed_is_not_doubted() -> None:
    states = np.array([2, 2, 1, 1, 1] + [0] * 9)
    assert not clashing_kinds(_marks([2, 2, 1, 1, 1]), states).any()
    assert not clashing_kinds(_marks([1, 1, 1]), np.array([1, 1, 1] + [0] * 11)).any()  # one kind only


def test_marks_look_alike_below_the_level_only() -> None:
    mark = np.eye(8)[0]
    f = np.tile(np.eye(8)[1], (14, 1))
    for distance, doubted in ((0.9 * COIN_KIND_ALIKE, True), (1.1 * COIN_KIND_ALIKE, False)):
        # a second unit vector at that distance from the first
        angle = 2 * np.arcsin(distance / 2)
        f[0], f[1] = mark, np.cos(angle) * mark + np.sin(angle) * np.eye(8)[3]
        flags = clashing_kinds(f, np.array([1, 2] + [0] * 12))
        assert flags.tolist() == [doubted, doubted] + [False] * 12


def test_classify_sheet_reports_twin_marks_of_different_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    probs = np.tile([0.98, 0.01, 0.01], (14, 1))
    probs[:3] = [[0.0, 0.93, 0.07], [0.0, 0.17, 0.83], [0.0, 0.95, 0.05]]  # seed 7050029's first coins
    monkeypatch.setattr(classify, "read_coins", lambda models, patches, gain=None: (probs, _marks([1, 1, 1])))
    cells = np.full((11, 11, PATCH, PATCH, 3), 235, np.uint8)
    reading = classify.classify_sheet(cells, "A", coin_patches=_track(3))
    # the best guess follows the twins (the net alone: 2 filled, 1 crossed), and stays a doubt
    assert (reading.coins, reading.spent) == (3, 0)
    assert reading.doubtful_coins == (0, 1, 2)
    raw = classify.classify_sheet(cells, "A", coin_patches=_track(3), decode=False)
    assert raw.doubtful_coins == ()


def test_a_half_known_kind_beside_sure_twins_is_made_sure() -> None:
    probs = np.tile([0.98, 0.01, 0.01], (14, 1))
    probs[:3] = [[0.0, 0.95, 0.05], [0.02, 0.58, 0.40], [0.0, 0.96, 0.04]]
    states = np.array([1, 1, 1] + [0] * 11)
    pooled = kinds_of_alike_marks(probs, _marks([1, 1, 1]), states)
    assert pooled[1, 1] >= COIN_THRESHOLD > probs[1, 1]
    assert np.allclose(pooled.sum(axis=1), probs.sum(axis=1))  # a mark's odds of being a mark stay its own
    assert pooled[1, 0] == probs[1, 0] and np.array_equal(pooled[3:], probs[3:])


def test_kinds_are_pooled_between_look_alikes_only() -> None:
    probs = np.tile([0.98, 0.01, 0.01], (14, 1))
    probs[:3] = [[0.0, 0.95, 0.05], [0.02, 0.58, 0.40], [0.0, 0.96, 0.04]]
    states = np.array([1, 1, 1] + [0] * 11)
    # the second mark unlike the others (a look of its own): its kind is its own, softened
    pooled = kinds_of_alike_marks(probs, _marks([1, 2, 1]), states)
    assert pooled[1, 1] < probs[1, 1] < COIN_THRESHOLD
    assert pooled[0, 1] > probs[0, 1]  # the two alike still pool
    assert np.array_equal(kinds_of_alike_marks(probs, _marks([]), np.zeros(14, int)), probs)


def test_classify_sheet_clears_a_half_known_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    probs = np.tile([0.98, 0.01, 0.01], (14, 1))
    probs[:3] = [[0.0, 0.95, 0.05], [0.02, 0.58, 0.40], [0.0, 0.96, 0.04]]
    cells = np.full((11, 11, PATCH, PATCH, 3), 235, np.uint8)
    for kinds, doubts in (([1, 1, 1], ()), ([1, 2, 1], (1,))):
        monkeypatch.setattr(classify, "read_coins",
                            lambda models, patches, k=kinds, gain=None: (probs, _marks(k)))
        reading = classify.classify_sheet(cells, "A", coin_patches=_track(3))
        assert (reading.coins, reading.spent) == (3, 0)
        assert reading.doubtful_coins == doubts


# --- the track as a whole: the count by the net and by the sheet together, sure as a whole -------------

def _probs(*coins: tuple[float, float, float]) -> np.ndarray:
    return np.array(coins + ((0.98, 0.01, 0.01),) * (14 - len(coins)))


def test_the_net_count_is_sure_where_sure_coins_hold_an_unsure_one() -> None:
    probs = _probs((0.0, 0.97, 0.03), (0.55, 0.40, 0.05), (0.0, 0.95, 0.05))  # the middle coin half empty
    count = track_counts(probs)
    assert count.shape == (15,) and count.sum() == pytest.approx(1.0)
    assert int(np.argmax(count)) == 3 and count[3] > 0.95
    assert decode_coin_track(probs, count).tolist() == decode_coin_track(probs).tolist()


def test_the_last_coin_of_a_run_half_read_leaves_the_count_unsure() -> None:
    count = track_counts(_probs((0.0, 0.97, 0.03), (0.45, 0.5, 0.05)))
    assert 0.4 < count[2] < 0.6 and count[1] + count[2] > 0.95


def test_the_sheet_count_settles_what_the_net_half_knows() -> None:
    probs = _probs((0.0, 0.97, 0.03), (0.45, 0.5, 0.05))
    net = track_counts(probs)
    both = both_counts(net, count_against_print(_looks(2)))
    assert both.sum() == pytest.approx(1.0) and both[2] > 0.99
    assert decode_coin_track(probs, both).tolist() == [1, 1] + [0] * 12
    # and where the sheet sees one mark only, the count follows it
    one = both_counts(net, count_against_print(_looks(1)))
    assert int(np.argmax(one)) == 1
    # a full track (no print left to compare with: the sheet says 0) is still the net's to read
    full = np.tile([0.0, 0.99, 0.01], (14, 1))
    assert int(np.argmax(both_counts(track_counts(full), count_against_print(_looks(14))))) == 14


def test_a_track_is_as_sure_as_its_count_and_kinds_together() -> None:
    probs = _probs((0.0, 0.9, 0.1), (0.0, 0.9, 0.1), (0.0, 0.9, 0.1))  # each coin filled at 0.9
    states = np.array([1, 1, 1] + [0] * 11)
    count = np.eye(15)[3]
    sure, conf = track_sureness(probs, states, count)
    assert sure == pytest.approx(0.9 ** 3)  # three kinds each at 0.9: 0.73 for (3, 0)
    assert conf[:3] == pytest.approx([0.9] * 3) and conf[3:] == pytest.approx([1.0] * 11)
    # two coins of unsure kind that can only swap keep the numbers sure: 1 filled, 1 crossed either way
    swap = _probs((0.0, 0.5, 0.5), (0.0, 0.5, 0.5))
    sure, _ = track_sureness(swap, np.array([1, 2] + [0] * 12), np.eye(15)[2])
    assert sure == pytest.approx(0.5)
    sure, _ = track_sureness(_probs((0.0, 0.9, 0.1), (0.0, 0.1, 0.9)), np.array([1, 2] + [0] * 12),
                             np.eye(15)[2])
    assert sure == pytest.approx(0.9 * 0.9 + 0.1 * 0.1)
    # an unsure count: the track and the coins past the likeliest count share it
    half = np.zeros(15)
    half[2], half[3] = 0.7, 0.3
    sure, conf = track_sureness(probs, np.array([1, 1] + [0] * 12), half)
    assert sure == pytest.approx(0.7 * 0.81)
    assert conf[2] == pytest.approx(0.7) and conf[1] == pytest.approx(0.9)


def test_read_coin_track_clears_an_unsure_coin_the_count_holds() -> None:
    probs = _probs((0.0, 0.97, 0.03), (0.55, 0.40, 0.05), (0.0, 0.95, 0.05))
    states, conf, doubtful = classify.read_coin_track(probs, _looks(3), _track(3))
    assert states.tolist() == [1, 1, 1] + [0] * 11
    assert not doubtful.any() and conf[1] > COIN_TRACK_THRESHOLD
    assert probs[1, 1] < COIN_THRESHOLD  # each coin on its own would have been doubted
    # without per-sheet decoding the coins are the net's, each doubted by the threshold
    raw, _, raw_doubt = classify.read_coin_track(probs, _looks(3), _track(3), decode=False)
    assert raw[1] == 0 and raw_doubt.any()


def test_read_coin_track_doubts_several_half_sure_kinds_each_above_the_threshold() -> None:
    # three marks unlike each other (no pooling), each filled at 0.92 (0.83 with kinds softened)
    probs = _probs((0.0, 0.92, 0.08), (0.0, 0.92, 0.08), (0.0, 0.92, 0.08))
    unlike = np.eye(8)[[0, 3, 4] + [1] * 11] + 0.0
    states, conf, doubtful = classify.read_coin_track(probs, unlike, _track(3))
    assert (conf[:3] > COIN_THRESHOLD).all()
    assert states.tolist() == [1, 1, 1] + [0] * 11
    assert float(np.prod(conf[:3])) < COIN_TRACK_THRESHOLD
    assert doubtful.tolist() == [i < 3 for i in range(14)]  # every coin below the track's threshold


def test_the_least_sure_coin_is_doubted_when_every_coin_is_above_the_track_threshold() -> None:
    probs = _probs((0.0, 0.97, 0.03), (0.0, 0.98, 0.02), (0.0, 0.995, 0.005))
    unlike = np.eye(8)[[0, 3, 4] + [1] * 11] + 0.0
    _, conf, doubtful = classify.read_coin_track(probs, unlike, _track(3))
    assert (conf[:3] >= COIN_TRACK_THRESHOLD).all() and float(np.prod(conf[:3])) < COIN_TRACK_THRESHOLD
    assert int(doubtful.sum()) == 1 and doubtful[int(np.argmin(conf))]


def test_a_kind_the_net_half_knows_against_its_twins_is_guessed_by_them_and_doubted() -> None:
    # the second coin's own odds say crossed, weakly; its two twins say filled, surely
    probs = _probs((0.0, 0.96, 0.04), (0.0, 0.45, 0.55), (0.0, 0.97, 0.03))
    states, _, doubtful = classify.read_coin_track(probs, _marks([1, 1, 1]), _track(3))
    assert states.tolist() == [1, 1, 1] + [0] * 11
    assert doubtful[:3].all()  # the net read the twins as two kinds: a cross over a mark is possible
    # a coin unlike the others keeps its own kind
    states, _, _ = classify.read_coin_track(probs, _marks([1, 2, 1]), _track(3))
    assert states.tolist() == [1, 2, 1] + [0] * 11


@pytest.mark.parametrize(
    ("count", "dtype"), [(1, np.float32), (2, np.float64), (14, np.float32), (15, np.float64)]
)
def test_suffix_medians_are_numpys(count: int, dtype: type) -> None:
    normal = np.random.default_rng(count).normal(size=(count, 5))
    values: np.ndarray = np.round(normal, 1).astype(dtype)  # rounded: ties too
    got = _suffix_medians(values)
    assert got.dtype == values.dtype
    assert np.array_equal(got, np.stack([np.median(values[n:], axis=0) for n in range(count)]))


def test_the_track_threshold_decides_the_doubt() -> None:
    probs = _probs((0.0, 0.92, 0.08), (0.0, 0.92, 0.08), (0.0, 0.92, 0.08))
    unlike = np.eye(8)[[0, 3, 4] + [1] * 11] + 0.0
    _, conf, doubted = classify.read_coin_track(probs, unlike, _track(3))
    sure = float(np.prod(conf[:3]))  # the count is sure: the track's sureness is its kinds'
    _, _, lenient = classify.read_coin_track(probs, unlike, _track(3), track_threshold=0.9 * sure)
    _, _, strict = classify.read_coin_track(probs, unlike, _track(3), track_threshold=1.1 * sure)
    assert doubted.any() and strict.any() and not lenient.any()


# --- a barely seen mark is a gain mark: a cross is an X, which the net knows -------------------------

def test_a_faint_mark_is_gained_and_a_clearly_seen_one_keeps_its_kind() -> None:
    # an unfamiliar ring the net reads mostly empty, its leftover odds leaning crossed; a clear X
    probs = _probs((0.85, 0.05, 0.10), (0.0, 0.02, 0.98), (0.9, 0.04, 0.06))
    out = faint_marks_gained(probs)
    assert out[0].tolist() == pytest.approx([0.85, 0.15, 0.0])
    assert out[1].tolist() == probs[1].tolist()  # seen as a mark: its kind is the net's
    assert np.allclose(out[:, 0], probs[:, 0]) and np.allclose(out.sum(axis=1), probs.sum(axis=1))
    assert probs[0].tolist() == [0.85, 0.05, 0.10]  # the given array is left alone


def test_faint_is_below_the_level_only() -> None:
    for mark, moved in ((0.99 * COIN_FAINT_MARK, True), (1.01 * COIN_FAINT_MARK, False)):
        probs = _probs((1.0 - mark, 0.3 * mark, 0.7 * mark))
        out = faint_marks_gained(probs)
        assert bool(out[0, 2] == 0.0) is moved
        assert out[0, 1] + out[0, 2] == pytest.approx(mark)


def test_read_coin_track_reads_a_faint_mark_the_sheet_counts_as_gained_and_clear() -> None:
    # seed 9043044's lone coin (threshold-fit photos): a ring the net reads at 0.17, a quarter crossed;
    # the sheet's own count holds it as marked, and as a gain mark its kind is no longer in doubt
    probs = _probs((0.83, 0.13, 0.04))
    features = np.eye(8)[[0] + [1] * 13] + 0.0
    states, _, doubtful = classify.read_coin_track(probs, features, _track(1))
    assert states.tolist() == [1] + [0] * 13 and not doubtful.any()
    kinds = probs.copy()
    kinds[0] = (0.83, 0.05, 0.12)  # the same faint mark whichever kind its leftover odds lean to
    assert classify.read_coin_track(kinds, features, _track(1))[0].tolist() == states.tolist()


# --- the odd mark out among a player's twin gain marks may be one crossed out ------------------------

def test_a_clear_mark_unlike_several_twin_gains_is_doubted() -> None:
    # seed 9063005 (threshold-fit photos): a cross over the first mark, read filled at 0.96
    probs = _probs((0.0, 0.96, 0.04), *[(0.0, 0.99, 0.01)] * 4)
    states = _states(5)
    flags = odd_gain_mark(probs, _marks([2, 1, 1, 1, 1]), states)
    assert flags.tolist() == [True] + [False] * 13
    assert not odd_gain_mark(probs, _marks([1, 1, 1, 1, 1]), states).any()  # all alike: one gain mark


def test_an_odd_mark_is_not_doubted_beside_too_few_twins_read_filled_or_less_seen_than_a_cross() -> None:
    probs = _probs((0.0, 0.96, 0.04), *[(0.0, 0.99, 0.01)] * 4)
    looks = _marks([2, 1, 1, 1, 1])
    few = _states(3)
    assert not odd_gain_mark(probs, looks, few, twins=3).any()  # two twins only
    assert odd_gain_mark(probs, looks, few, twins=2)[0]
    crossed = np.array([1, 2, 2, 2, 2] + [0] * 9)  # the twins read crossed: no gain mark to compare
    assert not odd_gain_mark(probs, looks, crossed).any()
    for seen, doubted in ((0.99 * COIN_CROSS_SEEN, False), (1.01 * COIN_CROSS_SEEN, True)):
        faint = probs.copy()
        faint[0] = (1.0 - seen, seen, 0.0)  # a mark less clearly seen than a cross is
        assert bool(odd_gain_mark(faint, looks, _states(5))[0]) is doubted


def test_read_coin_track_doubts_the_odd_mark_out() -> None:
    probs = _probs((0.0, 0.96, 0.04), *[(0.0, 0.99, 0.01)] * 4)
    states, _, doubtful = classify.read_coin_track(probs, _marks([2, 1, 1, 1, 1]), _track(5))
    assert states.tolist() == _states(5).tolist()
    assert doubtful.tolist() == [True] + [False] * 13


# --- marks the net sees past a coin it sees clearly empty break the prefix ----------------------------

def _seen(*marks: float) -> np.ndarray:
    """Coin probabilities with the given probability of a mark (all of it filled), the rest clearly empty."""
    mark = np.array(marks + (0.01,) * (14 - len(marks)))
    return np.stack([1.0 - mark, mark, np.zeros(14)], axis=1)


def test_marks_past_a_clearly_empty_coin_are_doubted() -> None:
    # a real print drawn on: six light ticks, the first two barely seen, the run read as no coin at all
    probs = _seen(0.02, 0.02, 0.75, 0.21, 0.76, 0.78)
    flags = marks_beyond_run(probs, _states(0))
    assert flags.tolist() == [i in (2, 4, 5) for i in range(14)]


def test_marks_in_the_run_or_before_any_clearly_empty_coin_are_not_doubted() -> None:
    # a run of three read as such: nothing after it seen as marked
    assert not marks_beyond_run(_seen(0.99, 0.98, 0.97), _states(3)).any()
    # a print the net half reads as marks to the end of the track, its last coin seen empty
    half = _seen(*(0.51, 0.76, 0.72, 0.86, 0.99, 0.86, 0.87, 0.92, 0.95, 0.64, 0.96, 0.75, 0.65, 0.07))
    assert not marks_beyond_run(half, _states(0)).any()
    # the same print read past a clearly empty first coin: its marks break the prefix
    assert marks_beyond_run(_seen(0.05, *half[1:, 1]), _states(0))[1:13].all()


def test_marks_past_an_empty_coin_are_doubted_from_the_levels_on() -> None:
    for mark, doubted in ((0.99 * COIN_BEYOND_SEEN, False), (COIN_BEYOND_SEEN, True)):
        assert bool(marks_beyond_run(_seen(0.02, *[mark] * COIN_BEYOND_MARKS), _states(0)).any()) is doubted
    assert not marks_beyond_run(_seen(0.02, *[0.9] * (COIN_BEYOND_MARKS - 1)), _states(0)).any()
    for empty, doubted in ((0.99 * COIN_BEYOND_EMPTY, True), (COIN_BEYOND_EMPTY, False)):
        probs = _seen(*[0.3] * 3, *[0.9] * COIN_BEYOND_MARKS, *[0.3] * 9)
        probs[1] = (1.0 - empty, empty, 0.0)
        assert bool(marks_beyond_run(probs, _states(0)).any()) is doubted


def test_read_coin_track_doubts_marks_past_a_clearly_empty_coin() -> None:
    probs = _seen(0.02, 0.02, 0.75, 0.21, 0.76, 0.78)
    features = np.eye(8)[[1] * 14] + 0.0  # every coin looks like the print: the sheet counts no mark
    states, _, doubtful = classify.read_coin_track(probs, features, _track(0))
    assert states.tolist() == [0] * 14
    assert np.flatnonzero(doubtful).tolist() == [2, 4, 5]


def test_a_track_read_unspent_whose_marks_each_may_well_be_crossed_is_doubted() -> None:
    # a hard photo's blurred track: four dark marks, one of them a spent coin, read filled with their twins
    probs = _probs((0.0, 0.741, 0.259), (0.0, 0.96, 0.04), (0.0, 0.732, 0.268), (0.0, 0.927, 0.073))
    flags = spent_against_kinds(probs, _states(4))
    assert flags.tolist() == [i == 2 for i in range(14)]  # the mark likeliest crossed
    # one coin alone at a quarter's odds of a cross is no doubt: three in four tracks read so are right
    assert not spent_against_kinds(_probs((0.0, 0.74, 0.26), (0.0, 0.97, 0.03)), _states(2)).any()


def test_a_crossed_coin_the_marks_hardly_allow_is_doubted_and_the_chance_is_of_the_read_count() -> None:
    e, f, x = (COIN_CLASSES.index(k) for k in ("empty", "filled", "crossed"))
    probs = _probs((0.0, 0.9, 0.1), (0.0, 0.8, 0.2), (0.0, 0.95, 0.05))
    read = np.array([f, x, f] + [e] * 11)  # one cross, where the marks give a cross 1 chance in 3
    assert spent_against_kinds(probs, read).tolist() == [i == 1 for i in range(14)]
    chance = 0.1 * 0.8 * 0.95 + 0.9 * 0.2 * 0.95 + 0.9 * 0.8 * 0.05  # exactly one cross of three
    assert not spent_against_kinds(probs, read, level=chance * 0.999).any()
    assert spent_against_kinds(probs, read, level=chance * 1.001).any()
    assert not spent_against_kinds(probs, np.full(14, e)).any()  # no mark, no kind to doubt


def test_read_coin_track_doubts_a_spent_coin_its_twins_read_filled() -> None:
    probs = _probs((0.0, 0.741, 0.259), (0.0, 0.96, 0.04), (0.0, 0.732, 0.268), (0.0, 0.927, 0.073))
    features = np.eye(8)[[2, 2, 2, 2] + [1] * 10] + 0.0  # four twin marks, the rest the print
    states, _, doubtful = classify.read_coin_track(probs, features, _track(4))
    assert coins_and_spent(states) == (4, 0)
    assert doubtful[2]


def test_coins_and_spent_count_the_filled_and_the_crossed_coins() -> None:
    e, f, x = (COIN_CLASSES.index(k) for k in ("empty", "filled", "crossed"))
    assert coins_and_spent(np.array([f, x, f, x, x] + [e] * 9)) == (2, 3)
    assert coins_and_spent(np.full(14, e)) == (0, 0)
