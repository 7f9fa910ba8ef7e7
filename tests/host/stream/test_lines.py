"""The line reader: the same lines for every cut of the same bytes, bounded, in every mode."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from linewise.stream.lines import LineReader, read_lines, text_lines

_ALPHABET = st.sampled_from(["a", "é", "😀", " ", "\r", "\n", "\ufeff", "{", "\x00"])


def _oracle(data: bytes) -> list[str]:
    """Today's session splitting, done on the whole input at once."""
    text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
    return text.split("\n")


def _cut(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(cut, len(data)) for cut in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


def _read_cut(data: bytes, cuts: list[int]) -> list[str]:
    """Every line a reader gives for ``data`` fed in the pieces ``cuts`` make, the partial last."""
    reader = LineReader()
    lines: list[str] = []
    for chunk in _cut(data, cuts):
        lines += reader.feed(chunk)
    rest, partial = reader.close()
    return [*lines, *rest, partial]


@given(text=st.text(_ALPHABET, max_size=60), cuts=st.lists(st.integers(0, 240), max_size=12))
def test_every_chunking_gives_the_lines_of_the_whole(text: str, cuts: list[int]) -> None:
    data = text.encode()
    assert _read_cut(data, cuts) == _oracle(data)


@given(text=st.text(_ALPHABET, max_size=60), cuts=st.lists(st.integers(0, 240), max_size=12))
def test_invalid_utf8_cut_anywhere_is_replaced_the_same_way(text: str, cuts: list[int]) -> None:
    data = text.encode() + b"\xff\xe2\x82" + text.encode()
    assert _read_cut(data, cuts) == _oracle(data)


_BYTES = st.sampled_from(
    [
        *(b"a", b"\n", b"\r\n", "\u00e9".encode(), "\U0001f600".encode(), b"\xef\xbb\xbf"),
        # invalid or cut UTF-8: a stray byte, sequences without their end, NUL
        *(b"\xff", b"\xe2\x82", b"\xf0\x9f", b"\x98", b"\x80", b"\x00"),
    ]
)


@given(atoms=st.lists(_BYTES, max_size=40), cuts=st.lists(st.integers(0, 160), max_size=12))
def test_any_bytes_cut_anywhere_give_the_lines_of_the_whole_stream(
    atoms: list[bytes], cuts: list[int]
) -> None:
    # Lines are decoded one by one: a sequence cut by a chunk, broken by a newline or
    # left unfinished at the end is replaced exactly as in the stream decoded at once.
    data = b"".join(atoms)
    assert _read_cut(data, cuts) == _oracle(data)


@given(atoms=st.lists(_BYTES, max_size=40), cuts=st.lists(st.integers(0, 160), max_size=12))
def test_text_chunks_end_the_bytes_before_them(atoms: list[bytes], cuts: list[int]) -> None:
    chunks = _cut(b"".join(atoms), cuts)
    reader = LineReader()
    lines: list[str] = []
    runs: list[bytes] = [b""]  # bytes fed in a row are decoded together; a str ends them
    for index, chunk in enumerate(chunks):
        if index % 2:
            text = chunk.decode("utf-8", "replace")
            lines += reader.feed(text)
            runs += [text.encode("utf-8", "surrogatepass"), b""]
        else:
            lines += reader.feed(chunk)
            runs[-1] += chunk
    rest, partial = reader.close()
    whole = "".join(run.decode("utf-8", "replace") for run in runs).removeprefix("\ufeff")
    assert [*lines, *rest, partial] == whole.split("\n")


def test_raw_mode_keeps_each_line_as_printed() -> None:
    reader = LineReader(raw=True)
    assert reader.feed(b"  a\r\n\nb") == ["  a\r\n", "\n"]
    assert reader.close() == ([], "b")


def test_a_line_beyond_the_limit_is_passed_on_once_and_its_rest_skipped() -> None:
    reader = LineReader(10)
    assert reader.feed("x" * 8) == []
    assert reader.feed("x" * 8) == ["x" * 16]  # passed on before its newline: memory stays flat
    assert reader.feed("y" * 100) == []
    assert reader.feed("z\nnext\n") == ["next"]
    assert reader.skipped_chars == 101  # the 100 y's and the z
    assert reader.close() == ([], "")


def test_an_unfinished_line_is_held_back_until_its_end() -> None:
    reader = LineReader()
    assert reader.feed(b"one\ntw") == ["one"]
    assert reader.pending
    assert reader.take_pending() == "tw"
    assert not reader.pending


def test_stderr_mode_gives_whole_lines_as_one_block_and_holds_the_rest() -> None:
    reader = LineReader(8)
    assert reader.feed_block(b"warn") == ""
    assert reader.feed_block(b"ing 1\nwarn") == "warning 1\n"
    assert reader.feed_block(b"ing 2 is very long") == "warning 2 is very long"
    assert reader.flush_block(final=True) == ""


def test_a_byte_order_mark_is_dropped_only_at_the_start() -> None:
    assert LineReader().feed(b"\xef\xbb\xbfa\n\xef\xbb\xbfb\n") == ["a", "\ufeffb"]
    # ...and lines as sessions see them lose a stray one too.
    assert text_lines("\ufeffa\n\ufeffb\n  \n") == ["a", "b"]


def test_read_lines_reads_a_stream_in_bounded_pieces() -> None:
    stream = io.BytesIO(b"first\n" + b"x" * 1000 + b"\n\n  last  ")
    assert list(read_lines(stream, max_chars=10, read_size=7)) == ["first", "x" * 10, "last"]
