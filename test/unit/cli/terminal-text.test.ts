import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { answerText, block, holdsHidden, indent, oneLine } from '../../../extension/cli/terminal-text';

describe('terminal text: untrusted text escaped for a terminal (red-team N1, N2)', () => {
  it('N1: one line escapes C0, DEL, C1, line breaks, bidi and invisible characters; ordinary text and non-Latin letters stay', () => {
    assert.equal(oneLine('npm test'), 'npm test');
    assert.equal(oneLine('grep "a\\.b" C:\\dir'), 'grep "a\\.b" C:\\dir', 'a backslash stays as written');
    assert.equal(oneLine('a\x1b[2Jb\x07\x00\x7f'), 'a\\x1b[2Jb\\x07\\x00\\x7f');
    assert.equal(oneLine('x\ty\nz\r'), 'x\\ty\\nz\\r');
    assert.equal(oneLine('\u009b2J'), '\\u{9b}2J', 'C1 CSI');
    assert.equal(oneLine('a\u202eb\u2066c\u200bd\ufeffe\u061c\u00ad'), 'a\\u{202e}b\\u{2066}c\\u{200b}d\\u{feff}e\\u{61c}\\u{ad}');
    assert.equal(oneLine('tag\u{e0041}'), 'tag\\u{e0041}', 'tag characters (ASCII smuggling)');
    assert.equal(oneLine('héllo 日本 مرحبا'), 'héllo 日本 مرحبا');
  });

  it('N1: the escapes are the bytes that run: bash $\'…\' reads them back to the original', () => {
    const original = 'touch x; echo ran # \x1b[2J\x1b[H\tfake\u202e\u2066';
    // bash reads \u{...} as \uXXXX: the form differs only by braces.
    const bashForm = oneLine(original).replace(/\\u\{([0-9a-f]+)\}/g, (_, h: string) => `\\U${h.padStart(8, '0')}`);
    const back = execFileSync('bash', ['-c', `printf '%s' $'${bashForm}'`], { encoding: 'utf8' });
    assert.equal(back, original);
  });

  it('N1: a block keeps line breaks and tabs (CR LF read as LF) and escapes the rest; it is idempotent', () => {
    assert.equal(block('a\r\nb\tc\rd\x1b[8m'), 'a\nb\tc\\rd\\x1b[8m');
    const once = block('x\x1b[1A\u202ey');
    assert.equal(block(once), once);
    assert.equal(oneLine(oneLine('\x1b')), '\\x1b');
    assert.equal(indent('a\nb', '  │ '), '  │ a\n  │ b');
  });

  it('N1: streamed answers keep emoji joiners and variation selectors, drop CR and escape controls and bidi', () => {
    const family = '👨\u200d👩\u200d👧 ❤\ufe0f';
    assert.equal(answerText(family), family);
    assert.equal(answerText('line\r\nnext\x1b[2J\u202e'), 'line\nnext\\x1b[2J\\u{202e}');
  });

  it('N1: holdsHidden ignores line breaks and tabs, not the rest', () => {
    assert.equal(holdsHidden('a\nb\tc'), false);
    assert.equal(holdsHidden('a\rb'), true);
    assert.equal(holdsHidden('a\u2069'), true);
  });
});
