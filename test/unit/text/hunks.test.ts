import assert from 'node:assert/strict';
import { HunkGoneError, hunkAt, keepHunk, lineText, linesWithEnds, splitHunks, undoHunk } from '../../../extension/core/text/hunks';

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join('');

describe('hunks (issue 30: keep or undo one change of a file)', () => {
  it('lines keep their own endings, the last one none when the text has none', () => {
    assert.deepEqual(linesWithEnds('a\r\nb\nc'), ['a\r\n', 'b\n', 'c']);
    assert.deepEqual(linesWithEnds(''), []);
    assert.deepEqual(linesWithEnds('\n\n'), ['\n', '\n']);
    assert.equal(lineText('x\r\n'), 'x');
  });

  it('splits a change into its runs of changed lines, in file order, with where each starts', () => {
    const before = lines('a', 'b', 'c', 'd', 'e');
    const after = lines('a', 'B', 'c', 'd', 'e', 'f');
    const hunks = splitHunks(before, after);
    assert.equal(hunks.length, 2);
    assert.deepEqual(
      hunks.map((h) => [h.oldStart, h.newStart, h.removed, h.added]),
      [
        [1, 1, ['b\n'], ['B\n']],
        [5, 5, [], ['f\n']],
      ],
    );
    assert.notEqual(hunks[0].key, hunks[1].key);
    assert.deepEqual(splitHunks(before, before), []);
  });

  it('hunks one unchanged line apart stay separate; undoing one leaves its neighbour', () => {
    const before = lines('a', 'b', 'c');
    const after = lines('A', 'b', 'C');
    const [first, second] = splitHunks(before, after);
    assert.equal(undoHunk(before, after, first.key), lines('a', 'b', 'C'));
    assert.equal(undoHunk(before, after, second.key), lines('A', 'b', 'c'));
    // Touching changes (a removal right before an addition) are one hunk.
    const touching = splitHunks(lines('a', 'b', 'c'), lines('a', 'x', 'y', 'c'));
    assert.deepEqual(touching.map((h) => [h.removed, h.added]), [[['b\n'], ['x\n', 'y\n']]]);
  });

  it('undoing the later hunk works where the earlier one moved its lines, and the earlier one after it', () => {
    const before = lines('one', 'two', 'three', 'four');
    const after = lines('zero', 'zero.5', 'one', 'two', 'THREE', 'four');
    const hunks = splitHunks(before, after);
    assert.deepEqual(hunks.map((h) => [h.oldStart, h.newStart]), [[0, 0], [2, 4]]);
    const undone = undoHunk(before, after, hunks[1].key);
    assert.equal(undone, lines('zero', 'zero.5', 'one', 'two', 'three', 'four'));
    // The remaining hunk keeps its key, so the list drawn before still names it.
    assert.equal(undoHunk(before, undone, hunks[0].key), before);
  });

  it('CRLF lines and a missing final newline come back byte for byte', () => {
    const before = 'a\r\nb\r\nc\r\nd';
    const after = 'a\r\nB\r\nc\r\nd\r\ne\n';
    const hunks = splitHunks(before, after);
    assert.equal(hunks.length, 2);
    assert.equal(undoHunk(before, after, hunks[0].key), 'a\r\nb\r\nc\r\nd\r\ne\n');
    assert.equal(undoHunk(before, after, hunks[1].key), 'a\r\nB\r\nc\r\nd');
    // A line-ending change alone is a change too.
    assert.equal(splitHunks('x\r\n', 'x\n').length, 1);
  });

  it('the user editing the file since (elsewhere) keeps the hunk undoable and their edit in place', () => {
    const before = lines('a', 'b', 'c', 'd');
    const agent = lines('a', 'b', 'c', 'D');
    const [hunk] = splitHunks(before, agent);
    const userEdited = lines('// note', 'a', 'b', 'c', 'D');
    assert.equal(undoHunk(before, userEdited, hunk.key), lines('// note', 'a', 'b', 'c', 'd'));
  });

  it('a hunk the user changed since is gone: a clear error, nothing computed from stale lines', () => {
    const before = lines('a', 'b');
    const agent = lines('a', 'B');
    const [hunk] = splitHunks(before, agent);
    assert.throws(() => undoHunk(before, lines('a', 'Bee'), hunk.key), (e: Error) => e instanceof HunkGoneError && /no longer in the file/.test(e.message));
    assert.throws(() => keepHunk(before, lines('a', 'Bee'), hunk.key), HunkGoneError);
  });

  it('identical hunks are told apart by their order', () => {
    const before = lines('a', 'x', 'b', 'x');
    const after = lines('a', 'y', 'b', 'y');
    const hunks = splitHunks(before, after);
    assert.equal(new Set(hunks.map((h) => h.key)).size, 2);
    assert.equal(undoHunk(before, after, hunks[1].key), lines('a', 'y', 'b', 'x'));
  });

  it('keeping a hunk takes it into the earlier text, so only the others remain', () => {
    const before = lines('a', 'b', 'c');
    const after = lines('A', 'b', 'C');
    const [first, second] = splitHunks(before, after);
    const base = keepHunk(before, after, first.key);
    assert.equal(base, lines('A', 'b', 'c'));
    const left = splitHunks(base, after);
    assert.deepEqual(left.map((h) => h.key), [second.key]);
    assert.deepEqual(splitHunks(keepHunk(base, after, second.key), after), []);
  });
});

describe('hunks: the one at a cursor (the diff editor\'s Keep/Undo Hunk at Cursor)', () => {
  it('finds the hunk holding the line on either side, and a removal from the lines around it', () => {
    const before = lines('a', 'b', 'c', 'd', 'e');
    const after = lines('a', 'B1', 'B2', 'c', 'e');
    const hunks = splitHunks(before, after);
    assert.equal(hunks.length, 2);
    assert.equal(hunkAt(hunks, 2, 'new'), hunks[0]);
    assert.equal(hunkAt(hunks, 1, 'old'), hunks[0]);
    assert.equal(hunkAt(hunks, 0, 'new'), undefined);
    // 'd' was removed: between 'c' (line 3) and 'e' (line 4) now; line 3 of the old text.
    assert.equal(hunkAt(hunks, 4, 'new'), hunks[1]);
    assert.equal(hunkAt(hunks, 3, 'old'), hunks[1]);
  });
});
