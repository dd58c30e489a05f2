import assert from 'node:assert/strict';
import { countBreakpoints, messagesParams, outputParams, toolInput } from '../../../../extension/core/model/anthropic/request';
import { finishReasonOf } from '../../../../extension/core/model/anthropic/stream';
import type { WireMessage, WireTool } from '../../../../extension/core/model/types';

const tool = (name: string): WireTool => ({ type: 'function', function: { name, description: `${name} it`, parameters: { type: 'object', properties: { path: { type: 'string' } } } } });
const opts = { model: 'claude-sonnet-4-5', cacheBreakpoints: true };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk';

describe('anthropic provider: the request in the Messages API shape', () => {
  const tools = [tool('read_file'), tool('view_image')];
  const conversation: WireMessage[] = [
    { role: 'system', content: 'You are Snowpea.' },
    { role: 'user', content: 'Look at a.png and b.txt' },
    {
      role: 'assistant',
      content: 'Reading both.',
      tool_calls: [
        { id: 'toolu_a', type: 'function', function: { name: 'view_image', arguments: '{"path":"a.png"}' } },
        { id: 'toolu_b', type: 'function', function: { name: 'read_file', arguments: '{"path": "b.txt"' } },
        { id: 'toolu_c', type: 'function', function: { name: 'read_file', arguments: '' } },
      ],
    },
    { role: 'tool', tool_call_id: 'toolu_a', content: 'image attached: a.png' },
    { role: 'tool', tool_call_id: 'toolu_b', content: 'error: the arguments were not valid JSON' },
    { role: 'tool', tool_call_id: 'toolu_c', content: '' },
    { role: 'user', content: [{ type: 'text', text: 'Image from view_image:' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
  ];

  it('tools as {name, description, input_schema}; tool calls as tool_use with parsed input; results as one user message of tool_result blocks, the tool\'s picture after them', () => {
    const body = messagesParams({ messages: conversation, tools }, opts);
    assert.deepEqual(body.tools?.[0], { name: 'read_file', description: 'read_file it', input_schema: tools[0].function.parameters });
    assert.deepEqual(body.messages[1], {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'toolu_a', name: 'view_image', input: { path: 'a.png' } },
        // Malformed argument JSON is sent wrapped, so the model sees what it sent.
        { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { invalid_json_arguments: '{"path": "b.txt"' } },
        { type: 'tool_use', id: 'toolu_c', name: 'read_file', input: {} },
      ],
    });
    assert.equal(body.messages.length, 3);
    assert.deepEqual(body.messages[2], {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: 'image attached: a.png' },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'error: the arguments were not valid JSON' },
        { type: 'tool_result', tool_use_id: 'toolu_c' },
        { type: 'text', text: 'Image from view_image:' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG }, cache_control: { type: 'ephemeral' } },
      ],
    });
  });

  it('breakpoints on the last tool, the system prompt and the last block of the last message: 3 of the 4 allowed', () => {
    const body = messagesParams({ messages: conversation, tools }, opts);
    assert.equal(countBreakpoints(body), 3);
    assert.ok(countBreakpoints(body) <= 4);
    assert.deepEqual(body.tools?.[1].cache_control, { type: 'ephemeral' });
    assert.equal(body.tools?.[0].cache_control, undefined);
    assert.deepEqual(body.system, [{ type: 'text', text: 'You are Snowpea.', cache_control: { type: 'ephemeral' } }]);
    assert.equal(countBreakpoints(messagesParams({ messages: conversation, tools }, { ...opts, cacheBreakpoints: false })), 0);
  });

  it('the same tools array gives the same tools bytes, round after round', () => {
    const a = messagesParams({ messages: conversation.slice(0, 2), tools }, opts);
    const b = messagesParams({ messages: conversation, tools }, opts);
    assert.equal(a.tools, b.tools, 'the same translated array');
    assert.equal(JSON.stringify({ tools: a.tools, system: a.system }), JSON.stringify({ tools: b.tools, system: b.system }));
  });

  it('an assistant\'s Anthropic thinking goes back first, verbatim, redacted blocks too; other providers\' reasoning does not', () => {
    const blocks = [
      { type: 'thinking' as const, thinking: 'Let me look.', signature: 'EoQDCm0IDhgCKkCDzGs2' },
      { type: 'redacted_thinking' as const, data: 'EqkECkYIBxgCKkA8' },
    ];
    const asst = (source: 'anthropic' | 'reasoning_content'): WireMessage => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 't1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
      reasoning: { text: 'Let me look.', source, blocks, toolTurn: true },
    });
    const sent = (source: 'anthropic' | 'reasoning_content') => messagesParams({ messages: [{ role: 'user', content: 'go' }, asst(source), { role: 'tool', tool_call_id: 't1', content: 'x' }], tools: [] }, opts).messages[1].content;
    assert.deepEqual(sent('anthropic'), [...blocks, { type: 'tool_use', id: 't1', name: 'read_file', input: {} }]);
    assert.deepEqual(sent('reasoning_content'), [{ type: 'tool_use', id: 't1', name: 'read_file', input: {} }]);
  });

  it('max_tokens: model.maxOutputTokens or 8192 (4096 for Claude 3); with a thinking budget, the budget on top', () => {
    assert.deepEqual(outputParams({ model: 'claude-sonnet-4-5' }), { max_tokens: 8192 });
    assert.deepEqual(outputParams({ model: 'claude-3-haiku-20240307' }), { max_tokens: 4096 });
    assert.deepEqual(outputParams({ model: 'claude-sonnet-4-5', maxOutputTokens: 2000 }), { max_tokens: 2000 });
    assert.deepEqual(outputParams({ model: 'claude-sonnet-4-5', thinkingBudgetTokens: 4000 }), { max_tokens: 12192, thinking: { type: 'enabled', budget_tokens: 4000 } });
  });

  it('tool input: an object as is, nothing as {}, anything else wrapped', () => {
    assert.deepEqual(toolInput('{"a":1}'), { a: 1 });
    assert.deepEqual(toolInput('  '), {});
    assert.deepEqual(toolInput('[1]'), { invalid_json_arguments: '[1]' });
    assert.deepEqual(toolInput('{"a":'), { invalid_json_arguments: '{"a":' });
  });

  it('stop reasons in the words every client uses', () => {
    assert.deepEqual(
      ['end_turn', 'stop_sequence', 'tool_use', 'max_tokens', 'refusal', 'pause_turn', null].map(finishReasonOf),
      ['stop', 'stop', 'tool_calls', 'length', 'content_filter', 'pause_turn', null],
    );
  });
});
