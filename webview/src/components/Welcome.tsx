import { Icon } from '../ui/Icon';

export function Welcome() {
  return (
    <div className="welcome" data-kind="welcome">
      <Icon name="sparkle" className="welcome-icon" />
      <p>Ask Snowpea to read, change or explain the code in this workspace.</p>
      <p className="hint">Enter sends, Shift+Enter adds a new line.</p>
    </div>
  );
}
