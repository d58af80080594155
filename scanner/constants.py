"""Tuning constants of the scanner stages, each with the reason for its value.

Lengths in *cells* are relative to the printed grid pitch; lengths in *px* are canonical-image pixels.
Sheet layout facts (where the frame, coin track ... sit) are not here: they live in ``geometry.json``.
"""

from __future__ import annotations

# --- class orders of the nets (the manifest is checked against them on load) -----------------------
TERRAIN_CLASSES = ("empty", "forest", "village", "farm", "water", "monster", "hero", "destroyed")
"""Terrain head class order; :data:`TERRAIN_SYMBOLS` gives each class's notation symbol."""

TERRAIN_SYMBOLS = (".", "F", "V", "P", "W", "M", "H", "X")

COIN_CLASSES = ("empty", "filled", "crossed")

EDGE_CLASSES = ("none", "outline")

# --- canonical image (rectify / sample) -------------------------------------------------------------
CANON_PPC = 48
"""Pixels per cell of the canonical image: a phone photo gives 60-150 px per cell, 48 keeps pencil
strokes (about 1-2 px wide at this scale) while a whole canonical sheet stays under 0.6 MP."""

CANON_MARGIN = 2.0
"""Margin around the grid in cells, on all four sides: the coin track reaches y = 12.72 (1.72 below the
grid); the same margin on every side keeps the canonical square so that it can be turned by np.rot90."""

PATCH = 32
"""Side of a cell / coin patch in px: the cell interior (48 px) less an inset of 8 px each side."""

CELL_INSET = (CANON_PPC - PATCH) // 2
"""Inset from each cell edge in px (1/6 cell): pencil outlines along shape borders stay out of the patch."""

EDGE_ALONG = 32
"""Length of an edge strip along its edge in px: the middle 2/3 of the edge, away from grid crossings."""

EDGE_ACROSS = 16
"""Width of an edge strip across its edge in px (+-1/6 cell): a pencil outline drawn on the printed
line lies well inside it even when the player draws a little off the line."""

# --- load --------------------------------------------------------------------------------------------
MAX_PIXELS = 64_000_000
"""Refuse images above 64 MP before decoding: 3x the largest phone sensors in common use (~50 MP
modes are 8160 x 6120 = 50 MP) and a bound on decode memory (192 MB of BGR)."""
MAX_FILE_BYTES = 128 * 1024 * 1024
"""Refuse photo files above 128 MiB before reading them whole: a 50 MP phone JPEG is ~25 MB, a 64 MP
PNG of a scan at most ~190 MB uncompressed but far less compressed (a bound on read memory)."""

WORK_SIDE = 1500
"""Long side in px a large JPEG photo may be shrunk to while it is decoded (by 2, 4 or 8: libjpeg does
this for a fraction of the cost of a full decode): a sheet filling the frame still has its grid at
~80 px per cell there, well above the canonical image's 48.  A photo whose grid comes out under
:data:`CANON_PPC` px per cell there (a sheet small in the frame) is read again at full size."""

# --- locate ------------------------------------------------------------------------------------------
LOCATE_SIDE = 960
"""Long side in px of the downscaled copy used to find candidate quadrilaterals: a sheet at 25 % of
the frame still shows its grid at ~20 px per cell there, and contour search stays at a few ms."""

LOCATE_DENOISE = 0.8
"""Gaussian sigma (px of the downscaled copy) before thresholding: tames sensor noise in dim photos
while a 1-px grid line survives."""

LOCATE_DEPTH = 0.06
"""A pixel is "dark line" when this fraction darker than its neighbourhood mean: relative, so a photo
at 40 % exposure keeps its frame."""

LOCATE_NOISE_SIGMAS = 3.0
"""... and darker by at least this many noise sigmas (of the denoised image, ~half the raw sigma)."""

VERIFY_PPC = 16
"""Pixels per cell when a candidate quadrilateral is rectified to check for the 11x11 line comb."""

VERIFY_PAD = 1.5
"""Cells of context around a candidate when checking it: the candidate may be the outer frame line
(0.19 cell outside the grid) or a page border (about 1.3 cells outside)."""

COMB_SCALE_RANGE = (0.74, 1.12)
"""Grid size relative to the candidate's size searched by the comb fit: 0.74 admits the printer-friendly
page border as a candidate, 1.12 a candidate that cut a little into the grid."""

COMB_PARTIAL_RANGE = (0.5, 1.12)
"""Comb scale range when looking for a cut-off grid inside an outline that runs into the photo border:
down to 0.5 so that the page itself (grid 11 of its 19.2 cells tall) counts as such an outline."""

COMB_CAP_PERCENTILE = 97
"""Line-response profiles are capped at this percentile before the comb fit: the 12 lines fill about
15 % of a profile, so the cap sits on line peaks and a single overwhelming edge counts as one line."""

COMB_CHIRP = 0.0
"""Largest relative change of pitch across the grid the comb fit may bend to (perspective left by a
candidate tilted unlike the grid).  Off: on the synthetic phone set 0.16 fixed one photo and broke
another, the refinement absorbs the residual perspective anyway."""

COMB_MIN_SCORE = 1.5
"""Minimum comb contrast (mean line response minus mean mid-cell response, relative to the profile's
mean) for a candidate to count as an 11x11 grid; printed grids score 2.5-6, blank paper below 0.5."""

COMB_MIN_LINES = 10
"""Of the 12 lines per axis at least this many must stand out: tolerates a line hidden by a pencil."""

MIN_CANDIDATE_AREA = 0.02
"""Smallest candidate quadrilateral as a fraction of the downscaled image area (the grid of a sheet
at 25 % of the frame covers about 8 %)."""

SMALL_CANDIDATE_AREA = 0.005
"""Smallest outline asked away from the sheets found, and when no larger one verifies (a fraction of
the downscaled image's area, as :data:`MIN_CANDIDATE_AREA`): one of two sheets in a 12 MP table photo,
a sheet far from the camera.  A grid of this area is 7 px per cell in the 960 px copy and still
verifies there; in the photo it is ~30 px per cell, readable."""

ALTERNATE_OUTLINES = 3
"""Largest outlines that get second-guess quads (other choices of four hull sides) when no
candidate verifies: each costs up to 15 verifications, and only on photos that would fail."""

PAGE_ASPECT_RANGE = (1.1, 2.2)
"""Long over short side of a quad for it to pass for a page (``quads.page_like``; the page is 19.2 by
13.6 cells, 1.41) whose grid is placed by the printed layout: the coin track's box (about 8:1) is
not, and a card that is square is not."""

MAX_CANDIDATES = 12
"""Candidates verified at most, largest first: bounds the time on cluttered photos."""

REFINE_PASSES = ((16, 0.30), (24, 0.12), (32, 0.10))
"""(pixels per cell, half search window in cells) of the successive grid-line refinement passes:
the first absorbs the comb fit's error (< 0.2 cell), the last (at the photo's own resolution when that
is lower) gives sub-pixel crossings: 1 px there is 0.03 cell and peaks are interpolated to ~0.1 px."""

EDGE_LINE_WINDOW = 0.10
"""Half search window in cells for the outermost grid lines, around their extrapolation from the
inner lines: the colour sheet's outer frame line lies 0.19 cell outside and must not be taken."""

LINE_HALF_WIDTH = 0.12
"""Distance in cells at which a grid line is compared with the paper on both sides: wider than the
heaviest printed line (0.03 cell) plus blur, narrower than the frame's gap (0.19 cell)."""

BLURRED_HALF_WIDTH = 0.16
"""``LINE_HALF_WIDTH`` of the comb's second look when no candidate verified (comb.verify_candidate):
at 16 px per cell 3 px instead of 2, so a line smeared by defocus or motion (0.07 + 0.1 cell in the
hard synthetic tier) still stands out of the paper beside it.  Only then: it weakens the grid's
border line against the colour sheet's frame line 0.19 cell outside, and costs a second pass."""

LINE_POLY_DEGREE = 2
"""Degree of the per-line polynomial: 2 follows the gentle bow of curled paper without chasing noise."""

MIN_CELL_PX = 10.0
"""Smallest grid pitch in photo px that is still readable: below it pencil marks are 1-px smudges."""

GRID_CLEARANCE = 0.1
"""Cells between every grid crossing and the photo's edge for the grid to count as whole: the border
line (0.03 cell) and the paper either side of it that the line response compares it with (0.12 cell)
must be in the photo.  The sheet's margin, title and coin track may be cut (issue 13: the grid
decides, not the sheet's edge); what is cut is reported (``Location.cut``)."""

FRAME_MIN_SHARE = 0.5
"""Share of the 12 lines crossing each outermost row and column of a whole grid that must show
(``gridlines.frame_evidence``).  A
grid found a cell off has a row of bare paper or margin on one side: it is moved a cell back, and
refused if that does not make it whole (a grid cut by the photo's edge must never be read a cell
off)."""

BORDER_MIN_SHARE = 0.3
"""Share of each border line's 11 cell spans on which it must show for a grid near the photo's edge
to count as whole: 0.5 refused a synthetic phone photo whose curled edge showed 5 of 11."""

NEAR_EDGE = 1.5
"""Cells from the photo's edge within which a grid that is not whole (``FRAME_MIN_SHARE``) is refused
as cut off: there it may be a cut grid found a cell inwards.  Farther in it is read as before (a row
filled dark hides the lines that cross it)."""

BORDER_LINE_STRENGTH = 0.3
"""A border segment shows when its line response reaches this fraction of the inner lines' median."""

SHEETS_OVERLAP = 0.2
"""Largest share of the smaller of two verified grids that the other may cover for them to count as
two sheets (the same grid verifies through the frame's inner and outer lines and the paper: ~100 %)."""

NESTED_GRID_RATIO = 2.0
"""Area ratio from which a verified grid overlapping a better-scoring one replaces it: a comb found in
a pattern of drawn cells is far smaller than the sheet's grid around it, while the same grid found
twice differs by a few percent.  An outline reaching the photo's edge is verified as well when it is
2.5 times this ratio larger than every verified grid (a page is 2.2 times its grid)."""

SHIFT_CHECK_BELOW = 7.0
"""Landmark score (see ``orient.judge``) below which the grid's one-cell shifts are tried too: a
colour sheet found right scores 9-12, one found a cell off 3-6."""

SHIFT_REACH = 2
"""Largest grid shift in cells tried by that check: on the printer-friendly sheet the comb has landed
two cells off (onto the header's boxes) in a 12 MP phone photo."""

SHIFT_COIN_MARGIN = 0.3
"""Coin-track score gain (upright 0.5-2, elsewhere < 0.5) a one-cell shift needs to replace the grid."""

SHIFT_PRINT_MARGIN = 2.0
"""Landmark score gain a one- or two-cell shift needs to replace the grid on the print's word: grids
found right score 7.6-20 and their shifts at most 8.9 (B colour print), below that ``SHIFT_CHECK_BELOW``
is not asked; a cut grid found two rows inwards scored 3.0 against its true place's 8.2 (real prints
and synthetic phone photos, ``benchmarks/eval_crops.py``)."""

BLUR_MIN_SHARPNESS = 0.15
"""Minimum sharpness (variance of the Laplacian over the grey variance of the rectified grid, see
``locate.sharpness``): synthetic phone photos give 1-17, the hard tier's blurriest readable ones
~0.5; a Gaussian blur of 0.07 cell (pencil strokes smeared to mush) gives ~0.05."""


# --- orient ------------------------------------------------------------------------------------------
ORIENT_PPC = 24
"""Pixels per cell of the image the orientation and side are judged on: mountains and coins are big."""

MOUNTAIN_WEIGHT = 1.0
"""Weight of the mountain (and wasteland) evidence in the side/orientation score."""

COIN_WEIGHT = 3.0
"""Weight of the coin-track evidence (about 0.5-2 upright, under 0.5 in the other three turns on
synthetic phone photos): it decides the turn, and alone tells 0 from 180 degrees on side A, whose
mountains and ruins are symmetric under a half turn."""

ALIKE_WEIGHT = 12.0
"""Weight of how alike a side's five mountain cells look (``orient.cell_likeness``, -1..1): on
synthetic phone photos the true side's cells scored 0.79-0.99, every other side's and turn's at most
0.61 (printer-friendly prints with graphite drawings, colour prints alike)."""

ALIKE_BASE = 0.6
"""Likeness from which a side gains (below it, it loses): wrong sides stay below it.  The best score is
then raised back to what it was if it fell (a grid a cell off keeps its low score and is still checked
against the coin track, ``SHIFT_CHECK_BELOW``; a print too faint to compare still counts as a sheet).
Taking nothing away instead (only gains) read 26 of 30 printer-friendly sides right, this 28
(``benchmarks/eval_crops.py --sides 30``)."""

ALIKE_MIN_INK = 6.0
"""Standard deviation (grey levels, high-passed) below which a cell counts as bare: it is like nothing
(empty cells share the grid lines' halo, and a blank grid must not pass for a side)."""

ALIKE_BELOW = 6.0
"""Side margin (best side's score less the best other side's) below which the mountains' likeness is
asked: colour prints found right mostly clear it, the printer-friendly ones rarely."""

ALIKE_SLACK = 0.12
"""Cells are compared without their outer 0.12 cell (grid lines) and shifted by up to as much."""

MIN_SHEET_SCORE = 2.0
"""Smallest best (side, orientation) score for a grid to count as a Cartographers sheet: a blank
11x11 grid or another game's board scores near 0."""

TURN_DOUBT = 0.35
"""Orientation confidence below which ``Location.doubts`` reports the A1 corner as unclear: on 260
synthetic phone/webcam/hard photos it caught all 3 wrong turns and 2.7 % of the right ones."""

SIDE_DOUBT = 0.5
"""Side confidence below which ``Location.doubts`` reports the side as unclear: caught all 5 wrong
sides (all printer-friendly) and 3.3 % of the right ones on the same photos."""

# --- classify (per cell) ---------------------------------------------------------------------------
CONFIDENCE_THRESHOLD = 0.95
"""Below this calibrated probability a cell is reported as ``?`` (and listed), never guessed. Chosen on
synthetic photos with unseen drawing styles (benchmarks/eval_classifier.py, 100 sheets): 0.80 kept
89.6 % of the cells at 94.9 % accuracy, 0.90 86.0 % at 96.5 %, 0.95 81.7 % at 97.9 %."""

COIN_THRESHOLD = 0.80
"""A coin whose best class is below this is listed as doubtful (coins have no ``?`` notation)."""

COIN_TRACK_THRESHOLD = 0.85
"""A decoded coin track is doubted when the probability of its (filled, crossed) numbers is below this
(:func:`scanner.decode.track_sureness`, the count by the net and by the sheet's own coins together,
:func:`scanner.decode.both_counts`), instead of when any one coin is below ``COIN_THRESHOLD``. Fitted on
480 eval-split phone photos apart from ``eval_families``' (``benchmarks/eval_coin_tracks.py``: 360
photos from family seed 3000, and ``--start 1000 --sheets 20 --key 10849a456f73``): tracks right and
clear / wrong and clear were 267 / 11 with the per-coin threshold; by the track 310 / 10 at 0.8,
297 / 7 at 0.85, 280 / 7 at 0.88, 273 / 7 at 0.9, 261 / 6 at 0.93 (each mark's kind then guessed by
its twins: the same figures)."""

STAR_THRESHOLD = 0.9
"""Without per-sheet decoding, a star (hero hit marking) is reported when its calibrated probability
exceeds this; 0.9 rather than 0.5 raised the share of synthetic sheets with every star right from 46 %
to 55 % (unseen styles). Decoding reads stars as whole attack patterns instead
(:func:`scanner.decode.attack_stars`)."""

ADAPT_DEFAULT = True
"""Pool each cell's evidence with its look-alikes on the sheet (:func:`scanner.decode.adapt_to_sheet`)."""

DECODE_DEFAULT = True
"""Apply the structural priors: the coin track and the heroes' attack patterns (:mod:`scanner.decode`),
the outlined pieces (:mod:`scanner.pieces`)."""

PAPER_PERCENTILE = 90.0
"""Paper is the brightest common thing in a cell: this percentile of a sheet's cell pixels per channel
is mapped to :data:`PAPER_LEVEL`, which cancels the light's tint and the exposure."""

PAPER_LEVEL = 225.0

PAPER_SAMPLES = 20_000
"""Pixels sampled to estimate the paper's colour."""

NET_BATCH = 32
"""Patches per onnxruntime run: a sheet's 121 cells or 220 edge strips go through a net 32 at a time, so
that each layer's activations stay in the core's cache (one run of all 121 cells spilled them: the cell
and edge nets took 12-15 % longer); a net reads each patch on its own, so the numbers are the same."""

# --- decode (per-sheet) ------------------------------------------------------------------------------
CLUSTER_DISTANCE = 0.25
"""Average cosine distance of the cell net's features below which cells count as drawn alike: on
synthetic sheets with unseen drawing styles (first models) 0.25 split a sheet into ~7 groups for ~6
terrains with ~3 % of cells in a group of another terrain; 0.5 merged terrains (20 %)."""

PEER_WEIGHT = 0.5
"""Weight of a cell's look-alikes' mean log-probability against its own: at equal accuracy of the kept
cells 0.5 kept the most cells (first models, unseen-style phone photos: +3.6 points of coverage at 99 %);
more lets a group's shared mistake override a cell's correct reading."""

ADAPT_TEMPERATURE = 1.44
"""Divides the pooled log-probabilities so that they stay calibrated. It depends on the net, so each
cell net carries its own, fitted by ``python -m models.fit_decode`` and kept in its manifest
(``temperature.adapt``); this value is only the fall-back for a manifest without one (fitted by NLL
for the models of 2026-11-22 on 100 training-style sheets of seeds 9,500,000..)."""

LOG_FLOOR = 1e-4
"""Smallest probability taken into a log-sum: one confidently misread cell must not veto its group."""

STAR_HERO_PROBABILITY = 0.2
"""Hero-terrain probability from which a cell counts as a possible hero whose attack pattern of stars is
looked for: low, since a missed hero would drop its true stars (0.2 and 0.3 read the same stars)."""

ATTACK_STAR_LEVEL = 0.1
"""Star probability each cell of a hero's best-fitting attack pattern must reach for the pattern to be
read as stars. With the hero evidence below, on 200 synthetic sheets per split (all tiers) sheets with
every star right rose from 149 to 161 (held-out hand), 143 to 157 (held-out hand and icons) and 71 to 79
of 100 (training-like), against reading every star above 0.9 near a possible hero; 0.2-0.5 read alike
then. Refitted on 2026-12-07 on the 420 eval-split fit photos (family seed 3000 on), with the decoding
of that day: sheets with every star right 361 at 0.3, 366 at 0.1 and 0.05, 362 at 0.03 and 0.01, 346 at
0 (the best pattern round any likely hero), false stars 27, 29, 31, 38, 47, 126. A star hidden under a
drawing or a printed mountain reads weak, and one such cell used to drop its hero's whole pattern."""

HERO_STAR_BOOST = 50.0
"""Factor on the hero probability of a cell ringed by a whole attack pattern of stars. Heroes were the
least read class (72 of 118 hero cells on the held-out-hand sheets above, 64 of 118 held-out icons,
28 of 59 training-like); 20 read 90, 80 and 37 with drawable-cell accuracy up a little on all three
(5: 80, 68, 32; 100 gained heroes but lost other cells). Refitted 2026-11-25 with the seventh-sitting
cell net on 420 eval-split phone photos of the seven drawing families (``family_seeds('eval', f, 60,
start=3000)``, apart from the reported ones): hero cells right / other cells read as hero / cells
right / confident-wrong at 10, 20, 35, 50, 75, 100: 159 / 15 / 96.93 / 0.33 %, 166 / 19 / 96.94 /
0.31 %, 175 / 21 / 96.95 / 0.29 %, 179 / 23 / 96.96 / 0.29 %, 188 / 29 / 96.97 / 0.29 %, 190 / 30 /
96.98 / 0.28 % of 248 heroes; 50 takes most of the heroes for few false ones."""

HERO_RING_BOOSTS: tuple[tuple[int, float], ...] = ((3, 10.0), (4, 100.0))
"""Further factors on the hero probability of a cell whose whole ring has at least so many stars (the
largest reached counts): two stars ring many cells by chance, three or four seldom, so such a ring
outweighs a net that has never seen the player's hero (colour fills' orange heroes read as villages or
farms kept their stars off the sheet). A ring's stars are one hero's: a cell whose ring holds only stars
that a larger ring, or a likelier hero's, already explains keeps ``HERO_STAR_BOOST`` alone
(:func:`scanner.decode.hero_evidence`; a line of three stars rings four cells).
Four stars at 100 fitted 2026-12-06 on the 420 eval-split fit photos above (seventh-sitting net, that
day's decoder): hero cells right / other cells read as hero / cells right / confident-wrong without it
179 / 24 / 97.154 / 0.099 %, at 10: 190 / 24 / 97.178 / 0.097 %, 30: 191 / 24, 100: 195 / 24 / 97.188 /
0.097 %, 1000: 195 / 26; a further factor of 3 or 10 per star past two instead: 196 / 34 and 213 / 49.
Three stars at 10, each ring's stars explained once (2026-12-06, later, same photos): 212 / 32 / 97.207
/ 0.099 %, true stars found 532 -> 573 of 760, false stars 21 -> 28, sheets with every star right 356 ->
361 of 420; three at 3: 202 / 26 / 97.199 / 0.097 %, at 30: 218 / 34 / 97.216 / 0.102 %; at 10 with
every ring raised (nothing explained): 213 / 49; with an explained ring raised not at all: 210 / 29,
but true heroes whose stars a neighbour's ring took stayed confidently misread (colour fills, 3 cells
on the reported photos)."""

HERO_STAR_LEVEL = 0.5
"""Star probability from which a cell counts as starred when looking for a hero's whole pattern."""

STAR_BLIND_PRINT = ("wasteland",)
"""Printed kinds (attributes of :class:`rules.sides.PrintedSide`) whose print the net reads as hit stars:
a star read there is no evidence of a hero (:func:`scanner.decode.hero_evidence`,
:func:`scanner.decode.attack_stars`). The net never learnt any print, but on the real sheets only the
rift's jagged black outline reads as stars (the blank printer-friendly side B: stars on 8 of 10 photos,
round a ruin read as a hero; none with it), while stars drawn over the renderer's mountains read well
and find heroes (blind there too, 2 more of the eval families' 386 heroes were missed, 2026-12-08).
"""

HERO_MIN_STARS = 2
"""Fewest on-map stars a pattern must show to count as a hero's (one star fits too many cells)."""

HERO_GAPPED_PATTERN = 4
"""On-map cells from which a hero's attack pattern counts with one star unseen (for :func:`scanner.decode.
hero_evidence`; the patterns of four cells, the ring of a plus or of an x): a star drawn over a terrain
or on a printed mountain often reads under :data:`HERO_STAR_LEVEL`, and one such cell left the hero
unread. Fitted on the 420 eval-split fit photos (family seed 3000 on), 2026-12-07: confident errors
50 -> 48, sheets every cell right or doubted with its truth weighed 347 -> 350, heroes by best guess
211 -> 219 of 248 (other cells read as hero 34 -> 43, none with confidence); from 3 cells (a line of
three with two stars) other cells read as hero 103, from 5 no pattern is long enough (as without it)."""

HERO_EXCESS_CAP = 0.9
"""A game reveals at most one hero card a season, four in all, each hero drawn in one space (Heroes
rulebook; ``rules.check`` reports more as a problem). When more cells read as heroes above this
probability, a drawing is misread as a hero (the ``sketch`` family's grid farms and stick-figure trees),
so no hero reading is sure: each is held at this probability, a ``?`` with its best guess kept
(:func:`scanner.decode.spare_heroes`; hero readings under it are doubted already and may be the ones
too many). Measured 2026-12-07 on the 420 eval-split fit photos and 60
``sketch`` photos (family seed 3000): confident errors 48 -> 47 and 223 -> 203, no hero lost. Demoting
the hero reading of the cells past the four likeliest (to half their next class) cut false heroes
further (fit 43 -> 35, sketch 223 -> 96) but lost true heroes (219 -> 217, 42 -> 37), as did keeping
the four with the most stars within a hero's reach."""

# --- coin track (per-sheet ink check) ------------------------------------------------------------------
COIN_DISC = 0.82
"""Radius, as a fraction of the coin patch's half-side, of the disc holding the printed coin (0.6) and a
player's mark on it (a ring can reach 0.7); the patch outside it is the coin band's paper."""

COIN_PAPER_PERCENTILE = 75.0
"""Percentile of a coin patch's pixels outside the disc taken as its paper level, each patch on its own,
so that shade and glare along the track cancel (a stray pencil stroke there stays below it); 75 left 6
of 186 unseen-style sheets with a marked coin lighter than an empty one, the median 12."""

COIN_INK_BLUR = 1.0
"""Gaussian sigma in px before coin patches are compared: pixel noise and pencil grain average out."""

COIN_INK_SHIFT = 1
"""Largest shift in px tried when comparing a coin with the empty ones: the track is rectified within
about a pixel, and an unshifted comparison reads a misalignment as ink."""

RUINS_PRINT_CLASSES = ("farm",)
"""Classes whose odds the printed ruins icon inflates on its own cells (:func:`scanner.decode.
discount_print`): on the real prints with games drawn, the committed models read empty cells as farm
41 times in 100 photos, and of the empty cells read drawn in 42 games, 21 were ruins icons."""

RUINS_PRINT_DISCOUNT = 0.3
"""Factor on those odds on a ruins cell, before any other decoding. Measured 2026-12-07 (sixteenth
session, committed models, `benchmarks/eval_real_sheets.py --drawn 15` and `bench_end_to_end.py
--photos 300`): see README, "The printed ruins' farm odds discounted"."""

RUINS_ONLY_LEAST = 2
"""Fewest printed-ruins cells a terrain must be read on, and on no other cell, for those readings to be
doubted as the printed ruins icon misread: 1 of 500 random legal games drew a terrain on ruins only
(2 cells or more), while the printer-friendly reference sheets' ruins icon reads as farm on all six."""

RUINS_INK_DISC = 0.9
"""Radius, as a fraction of a cell patch's half-side, of the disc compared when a printed ruin read as
paper is set against the sheet's other bare ruins (:func:`scanner.decode.inked_ruins`): the ruins icon
and what a player draws over it; the patch's corners outside it give its paper level."""

RUINS_INK_FLOOR = 0.08
"""Darkening (mean over that disc, summed over the 3 channels, as a fraction of paper) from which a
printed ruin read as paper counts as drawn over: the same print sits on every ruin, so ink beyond the
other bare ruins' is a drawing. Over 1,330 cached eval- and params-split phone photos (sheets with three
ruins or more read as paper, committed models, 2026-12-06): 185 of the 244 ruins drawn over and read as
paper reach it (and keep their look-alikes' doubt), 348 of the 2,524 bare ones. Of the 59 drawn-over
ruins it misses, 8 end confidently wrong, 4 more than with every ruin sharing its group's doubt: yellow
dots or strokes too faint to darken the cell (0.02-0.09). 0.06 took 180 bare ruins on the fit photos
for no more drawn ones; 0.10 lost three drawn ones."""

RUINS_INK_RATIO = 1.0
"""... and it must exceed this many times the bare ruins' own darkening against each other (print,
grain and a shadow), so that a noisy photo does not call every ruin drawn over."""

RUINS_INK_LEAST = 3
"""Fewest printed ruins read as paper for them to be compared with each other: one against the median
of at least two others."""

GROUP_DOUBT_SHARE = 0.3
"""How far a look-alike group's doubtful cells pull its sure cells towards their own probabilities
(:func:`scanner.decode.share_group_doubt`): each by this share over the group's size, so a group's doubt
spreads as far as the group is doubtful. A net that has never seen a player's way of drawing a terrain
misreads the terrain as a whole, some of its cells doubtful and the rest confidently wrong (on the eval
photos 74 of the 95 confident errors lay on sheets with 12 or more '?' cells). Fitted on 420 eval-split
phone photos apart from the reported ones (``family_seeds('eval', f, 60, start=3000)``, seventh-sitting
net): confident errors 0.29 -> 0.17 / 0.15 / 0.15 / 0.15 % of drawable cells at 0.2 / 0.3 / 0.4 / 0.45,
'?' 11.6 -> 13.1 / 13.6 / 14.0 / 14.2 %: 0.3 is the knee. Mixing the group's doubtful cells in whole
(each sure cell taking a fifth of their mean) made one doubtful cell doubt a whole group of fifteen
coloured fills: '?' 16.3 % for the same errors. Below 0.47 no cell sure at 0.95 or more changes its best
class, so only doubts change, never a best guess."""

CELL_INK_INSET = 6
"""Pixels of a cell patch's each side left out when looking for coloured ink (of :data:`PATCH`): the
centre holds the drawing, the rim the grid line and the pencil outlines of the pieces."""

CELL_INK_CHROMA = 0.10
"""How much more coloured than the sheet's empty paper (chroma, the white-balanced pixel's largest
channel less its smallest, on a 0-1 scale, above the median of the cells read empty) a pixel must be
to count as coloured ink (:func:`scanner.decode.coloured_ink`). 0.08 let the parchment texture of the
real prints' scans count (20 empty cells of 42 photos doubted, against 4 at 0.10 and 1 at 0.12)."""

CELL_INK_SHARE = 0.02
"""Share of a cell's centre pixels in coloured ink from which a cell the net reads as empty is doubted
(:func:`scanner.decode.ink_against_empty`). Measured 2026-11-25 with the committed models over the
cells read empty with confidence, off the printed ruins (30 eval-split phone photos per drawing family,
100 params-split, 42 photos of the real blank prints): it doubts 21 of the 28 drawn cells so read on
eval (17 of them one sheet's pale yellow dotted farms) and 1 of 4 on params, against 4, 22 and 4 empty
cells (at 0.03: 18, 1 / 4, 15, 2; 0.05: 10, 1 / 3, 9, 0)."""

CELL_INK_DARK = 0.15
"""How much darker than the sheet's empty paper (the grey, the white-balanced channels' mean, on a 0-1
scale, below the median of the cells read empty) a pixel must be to count as dark ink
(:func:`scanner.decode.ink_share`)."""

PAPER_INK_SHARE = 0.01
"""Share of a cell's centre pixels in ink (dark or coloured, :func:`scanner.decode.ink_share`) below which
a cell the net reads as drawn is doubted as paper (:func:`scanner.decode.paper_read_drawn`). Probed
2026-12-08 on the games drawn on the real prints (params hand, 42 photos, a net trained on more
families): 16 of the 21 empty cells off the ruins read drawn hold less, 6 of 877 cells drawn and read
right; on the renderer's print 6 of 6 and 3 of 1016."""

PAPER_EMPTY = 0.6
"""The empty probability a cell read drawn but holding no ink is given (:func:`scanner.decode.
paper_read_drawn`): above every drawn class, so its best guess is paper, under the reporting threshold,
so it is ``?`` with the drawn reading still weighed."""

PAPER_QUIET_LEAST = 8
"""Fewest cells read as paper (off the printed ruins) a sheet needs before its paper is the yardstick of
:func:`scanner.decode.paper_read_drawn`: fewer, and a full sheet's few blanks say little."""

CELL_SPOT_SIGMA = 2.0
"""Gaussian sigma in px of the local paper level that a cell's dark spots stand out of
(:func:`scanner.decode.dark_spots`): wider than a dot or a pencil line, narrower than the cell."""

CELL_SPOT_INSET = 5
"""Pixels of a cell patch's each side left out when looking for dark spots (of :data:`PATCH`): the rim
holds the pencil outlines of the pieces."""

CELL_SPOT_PERCENTILE = 95.0
"""The percentile of a cell's local darkening (the blurred grey less the grey) that measures its dark
spots: a drawing's dots and strokes cover a few per cent of the cell, paper grain none."""

CELL_SPOT_FLOOR = 0.05
"""Dark spots (of 255 levels) from which a cell read empty counts as drawn on
(:func:`scanner.decode.dark_spots`). Fitted 2026-12-06 on the 180 eval-split fit photos (seeds 7,305,000..,
30 a family of graphite, glyph, colour fills, fills with icons, marker and mixed; phone tier; open cells
read empty, 9,834): of 75 drawn cells so read it flags 57, the 12 of the 13 confident ones among them
(one sheet's grey dotted farms, read empty at 0.95-0.99), and 2 of 9,759 empty cells. Sigma 1.5-3,
percentile 95-97, floor 0.04-0.08 and ratio 1.5-2.5 all flagged 12 of the 13 with 1-6 empty cells; the
coloured-ink share (``CELL_INK_SHARE``) flags none of them: the dots are grey. In the product on those
photos (``eval_families.py`` at those seeds): glyph's confident errors 0.51 -> 0.15 %, cells right by
best guess 95.77 -> 96.78 %."""

CELL_SPOT_RATIO = 2.0
"""... and the cell's dark spots must reach this many times the median of the sheet's open cells read
empty (their grain, the camera's noise), so that a noisy photo does not call every empty cell drawn."""

CELL_INK_EMPTY_CAP = 0.5
"""The most a cell with coloured ink keeps of its probability of being empty (the rest goes to its
terrains as the net ranks them): the cell becomes ``?`` and the terrains it may hold are weighed."""

INKED_EMPTY_RATIO = 0.5
"""A cell read as empty that the sheet shows drawn (coloured ink, a drawn-over ruin) keeps at most this
share of its likeliest drawn class's probability as empty (:func:`scanner.decode.drawn_first`), so its best
guess is that terrain. Of such cells on 420 eval-split fit photos (60 a family, seventh-sitting net) 54 of
204 were empty and the likeliest drawn class was right on 142; 0.5 gives them the highest likelihood (mean
log-probability of the truth 0.3: -0.785, 0.5: -0.775, 0.7: -0.798, 1: -0.849, the cap alone: -0.825).
Empty stays a plausible reading (at least 0.066 at 0.5)."""

COIN_MOST_MARKED = 12
"""Most marked coins a track is read with before all its marks become doubtful. Few games give that many
(500 random legal games of ``models.synth.play.random_game`` ended with 11 at most; coins come from coin
shapes and surrounded mountains), while a print whose coins the net has never seen is read as a track
marked from end to end: photographed real blank sheets of the publisher's print read as 13 or 14 marked
coins (``benchmarks/eval_real_sheets.py``)."""

COIN_LIKE_PRINT = 0.25
"""Distance between unit-length coin features (the coin net's last hidden layer) below which two coins
look alike: a printed coin and its copies along the track sit 0.03-0.15 apart, a pencil mark 0.3-1.0
from the print, on the renderer's prints and on the publisher's (``eval_real_sheets.py --drawn``)."""

COIN_LIKE_PRINT_GAIN = 30.0
"""Log-odds per unit of distance with which a coin counts as unlike the print: the sharpness of the
sheet-relative count. 20-40 with ``COIN_LIKE_PRINT`` 0.25-0.3 were tried on 200 real-print tracks: 30
read 61-71 % of them without doubt and right, 1 % wrong silently (20: 59-67 %, 0-2 %; 40: 66-73 %,
4-5 %)."""

COIN_KIND_ALIKE = 0.3
"""Distance between unit-length coin features below which two marked coins look alike enough to be one
kind of mark: one read filled and one read crossed that close are both doubted
(:func:`scanner.decode.clashing_kinds`; a player marks gained coins alike, and a cross adds strokes).
Marks of one kind on one sheet sit a median 0.18 apart (90 % below 0.34), a filled and a crossed mark
0.53 (5 % below 0.28). Fitted on 640 synthetic tracks with a coin marked (seeds 7080000.., a third of
each split, spent coins over-represented): the silently wrong tracks fell 22 -> 19 (held-out marks),
5 -> 3 (held-out hand), 13 -> 7 (training-like) for 2 right tracks doubted; 0.25 caught 4 for 2.
Doubting a coin whose nearest marked coin is of the other kind caught 13 for 5 within 0.35, 15 for 97
at any distance."""

COIN_KIND_POOL_TEMPERATURE = 1.5
"""Divisor of the summed filled-against-crossed log-odds of look-alike marks
(:func:`scanner.decode.kinds_of_alike_marks`): one hand's twin marks are misread alike, so their odds
are not independent looks. Most right coin tracks doubted came from the 0.80 threshold on a coin whose
kind the net half knew (filled at 0.55-0.79 beside confident twins). Fitted on 360 eval-split phone
photos apart from ``eval_families``' (``family_seeds('eval', f, 40, start=2000)`` and 20 more per
family), threshold kept at 0.80: tracks right and clear 167 -> 207 (1), 203 (1.25), 196 (1.5), 183 (2),
166 (2.5), wrong and clear 6, 6, 5, 5, 4; 1.5 the mildest softening that lowered the silent ones."""

COIN_FAINT_MARK = 0.6
"""Coin net probability of a mark (filled plus crossed) below which a mark in the track's run is taken as
gained, not spent (:func:`scanner.decode.faint_marks_gained`). A cross is an X, drawn alike by every
player and known to the net in every training hand; a gain mark is the player's own (a ring, a hatch, a
dot) and, when unfamiliar, barely seen. Of 84 crossed coins on single-kind tracks (480 threshold-fit and
180 params photos) the net saw every one at 0.9 or more (two more, in mixed tracks, at 0.71 and 0.75);
of 300 filled coins below 0.9, 18 read crossed. Fitted on those photos (eval split, ``--start 3000`` and
``--start 1000``): tracks right and clear 388 -> 406 (0.6), 409 (0.7), 412 but 2 more silent (0.8);
params unchanged (its marks are familiar). 0.6 keeps a margin below the faintest cross seen."""

COIN_CROSS_SEEN = 0.9
"""Coin net probability of a mark from which a mark is seen as clearly as a cross is: every one of the 84
crossed coins on single-kind tracks of the threshold-fit and params photos was seen at 0.9 or more (only
an odd mark seen so may be a cross: :func:`scanner.decode.odd_gain_mark`)."""

COIN_ODD_MARK_TWINS = 3
"""How many other marks read filled, each with a look-alike among them (``COIN_KIND_ALIKE``), show a
player's gain mark, beside which a clearly seen mark read filled but like no other mark of the track is
doubted (:func:`scanner.decode.odd_gain_mark`): gained coins are marked alike, so the odd one out is
likely the same mark crossed out. On the threshold-fit photos it doubted 1 silently wrong track (a crossed
coin read filled at 0.96 beside five twin gains) for 1 right one, on params 1 right one (2 twins: 5 right
doubted, the same wrong one)."""

COIN_BEYOND_SEEN = 0.6
"""Coin net probability of a mark (filled plus crossed) from which a coin is seen as marked by
:func:`scanner.decode.marks_beyond_run`. The marked coins are a prefix of the track, so the decoding reads
a mark after its run as a misread coin; but marks the net sees past a coin it sees clearly empty
(``COIN_BEYOND_EMPTY``) break the prefix, and are ink rather than the print misread: a run whose first
marks the net barely saw (a real print drawn on: six light ticks, the first two seen at 0.02 and three
others at 0.75-0.78, read as no coin at all without a doubt), or patches that miss the track."""

COIN_BEYOND_MARKS = 2
"""Fewest such marks that make the doubt. With the committed models, over 1,710 tracks (480 threshold-fit,
210 eval and 280 params phone photos of the seven families; the located photos of 300 a split end to
end, all tiers; the real prints drawn on, 100 read, and blank, 70), 0.6-0.7 with 2-3 marks and
``COIN_BEYOND_EMPTY`` 0.05-0.1 doubted the real print's track above (1 of the 21 read wrong with no
doubt) and no right track read clear before; 1 mark doubted 1-3 right ones, 0.5 with 2 marks 1,
``COIN_BEYOND_EMPTY`` 0.2 one or two (real prints whose print the net half reads as marks). Only one
silent track shows the pattern, so the levels rest on the right tracks it must leave alone."""

COIN_BEYOND_EMPTY = 0.1
"""Coin net probability of a mark below which a coin is seen clearly empty (the print read as print).
Where the net reads the print itself as marks (the publisher's gold coins) the coins are half marked
(0.14-0.86 on the real prints drawn on) or marked from the first, and only the last coin may be seen
empty, with no mark after it."""

COIN_SPENT_ODDS = 0.5
"""Chance of the read number of spent coins, by each marked coin's own odds of a cross against a fill
(independent), below which the marked coin likeliest of the other kind is doubted
(:func:`scanner.decode.spent_against_kinds`): twin marks pool their kinds, so a crossed coin drawn like
the filled ones was read filled without a doubt. 2026-12-06, ``eval_coin_tracks.py --thresholds 0.85``
(420 eval-split photos from family seed 3000, phone; ``--tier hard|webcam --sheets 20``, 140 each):
silent tracks / clear tracks phone 6 / 358 -> 6 / 355, hard 11 / 79 -> 10 / 78, webcam 6 / 107 -> 5 /
106 (0.3: phone 357 clear; 0.7: phone 344, hard 71, webcam 102 clear, silent 5, 10, 5). End to end
(300 photos): params wrong 2 -> 1 (seed 7050035, hard: a spent coin read filled), outright and exact
86 -> 86; eval 60 -> 59, wrong 1 -> 1."""

COIN_OVERRULED_KIND_TEMPERATURE = 2.0
"""Power softening the coin net's filled-against-crossed odds on a track read against its own print:
there the net reads the print as marks, and it read a spent gold coin as filled with 0.83-0.997 of that
odds. 2 turned 2 of the 4 silently wrong tracks of ``eval_real_sheets.py --drawn 15`` into doubts for
1 track right (62 -> 61 % right without a doubt); 3 doubted one more right track and no wrong one."""

COIN_INK_WINDOW = 6
"""Coins after the first coin read empty among which its empty look-alikes are sought: near enough that
shade along the track changes little, and long enough to hold three empty coins behind a short miscount."""

COIN_INK_REFERENCES = 3
"""The lightest coins of that window whose median is the sheet's empty coin (marks only add ink)."""

COIN_INK_FLOOR = 0.12
"""Darkening (mean over the disc, summed over the 3 channels, as a fraction of paper) from which the
first coin read empty counts as marked: about 5 % of correctly read tracks exceeded it, 25 of 31 tracks
with missed marks did (committed models, 300 cached sheets); 0.10-0.18 flagged nearly the same sheets."""

COIN_INK_RATIO = 3.0
"""... and it must exceed this many times the empty coins' own darkening against each other (their
print and noise), so that a noisy photo does not call every coin marked (2-4 differed by one sheet)."""

# --- pieces (per-sheet) -------------------------------------------------------------------------------
OUTLINE_THRESHOLD = 0.5
"""Outline probability from which an internal edge separates two pieces (the edge net is calibrated)."""

RUINS_JOINED_EMPTY_CAP = 0.5
"""Most a printed-ruins cell read as empty keeps of its empty probability when the outlines put it inside
a drawn piece (:func:`scanner.pieces.drawn_over_ruins`: joined without an outline to a neighbour read
as drawn, or parted by an outline from a neighbour read as paper). On the eval photos (30 a family,
seventh-sitting net), of the drawn-on ruins read as empty 34 of 57 were joined so to a drawn neighbour
and 9 more outlined against an empty one (19 of the 22 read with confidence); of the bare ruins read as
empty, 9 of 491 (8 joined, 1 outlined)."""

UNREAD_EDGE = 0.0
"""Outline probability given to an edge strip the edge net did not read because no piece it could bound
would change a cell (:func:`scanner.pieces.edges_to_read`): no line, what lies between two empty cells."""

PIECE_WEIGHT = 0.5
"""Weight of the mean log-probability of a card-shaped piece's other cells against a cell's own, when the
cell disagrees with its piece: 0.5 and 1.0 did equally well (committed models, 100 train-style sheets of
the calibration seeds); the lower weight overrules a cell only when its piece is clear."""

PIECE_FLOOR = 0.03
"""Factor on a terrain that no card offers in a piece's shape (for cells read as such a terrain): not
zero, since a misread outline can make a card's shape out of cells that are not one piece; 0.03 read
more cells right than 0.2."""

# --- doubtful cells (pipeline) -------------------------------------------------------------------------
ALTERNATIVE_PROBABILITY = 0.02
"""Calibrated probability from which a class counts as a plausible reading of a ``?`` cell (scored when
checking whether the unsure cells can change the score): low, since a missed reading could hide a
different score, yet it leaves most unsure cells with two or three readings."""

# --- track (following the grid from frame to frame, scanner.track) ----------------------------------
TRACK_POINTS = 160
"""Points followed at most: goodFeaturesToTrack corners of the grid, its frame and coin track (grid line
crossings, drawn strokes); 160 keep a homography fit robust to a hand covering half of them while
Lucas-Kanade on one core stays at ~2 ms per 720p frame."""

TRACK_REGION = (-0.6, -0.6, 11.6, 13.2)
"""Area (x0, y0, x1, y1 in cells) whose points are followed: the grid, its frame line and the coin
track below it (y up to 12.7), all flat printed paper that moves with the grid."""

TRACK_WINDOW = 15
"""Lucas-Kanade window side in px: half a cell or more at 720p (25-35 px per cell); 21 cost 30 % more
with no gain in corner error on the synthetic videos."""

TRACK_LEVELS = 3
"""Pyramid levels of Lucas-Kanade: 2^3 x the window (120 px) handles the ~60 px a sheet moves between frames
when it is slid across the table."""

TRACK_FB_PX = 1.0
"""Largest forward-backward error (px) of a followed point: points that do not come back to where
they started (on the hand's edge, on glare) are dropped."""

TRACK_RANSAC_PX = 2.0
"""RANSAC reprojection threshold in px of the cell-to-frame homography fit."""

TRACK_MIN_POINTS = 24
"""Fewer inliers than this and the grid counts as lost: the locator searches the frame again."""

TRACK_MIN_SHARE = 0.4
"""... or fewer than this share of the followed points agree with the homography."""

TRACK_RESEED = 0.6
"""New points are found once fewer than this share of :data:`TRACK_POINTS` remain (a hand covered
them, they slid off a fold...); they are tied to the sheet through the current homography."""

TRACK_MAX_JUMP = 0.35
"""Largest change of the grid's size (relative) or position (in cells) in one frame before the track
counts as lost: a homography that leaps was fitted to the hand, not to the paper."""

TRACK_CHECK_PPC = 16
"""Pixels per cell of the small top-down warp that checks the followed grid against its printed
lines (:func:`scanner.track.misalignment`)."""

TRACK_DRIFT = 0.12
"""Misalignment (cells) of the followed grid from its printed lines above which it is snapped back
to the print (``locate_from_corners``); the locator's refinement takes up to 0.3 cell."""

TRACK_CHECK_EVERY = 5
"""Frames between checks of the followed grid against the print."""

STEADY_MOTION = 0.03
"""Largest mean corner motion (cells per frame) over :data:`STEADY_FRAMES` frames of a steady sheet:
a followed sheet at rest jitters by 0.005-0.02 cell per frame on the synthetic videos (the far
corners of a homography fitted to noisy points), one being slid moves 0.15-0.7; at 0.03 cell per
frame a 1/30 s exposure smears a pencil stroke by under a pixel at 720p."""

STEADY_FRAMES = 5
"""Frames the sheet must hold still before it is read."""

TRACK_SIDE = 700
"""Long side in px at most of the grey frame points are followed in (halved with ``cv2.pyrDown``):
a 720p frame is followed at 640x360, where a cell still spans 12-18 px; Lucas-Kanade rebuilds its
pyramids on every call, which at full 720p cost more than following the points."""
