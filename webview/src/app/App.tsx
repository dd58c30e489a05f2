import { LoopBanner, RetryStatus, SessionNotices } from '../components/Banners';
import { Composer } from '../components/Composer';
import { PendingRequests } from '../components/Requests';
import { Transcript } from '../components/Transcript';

/** The chat view: notices, the conversation, what the host waits on, then the composer. */
export function App() {
  return (
    <div className="app">
      <SessionNotices />
      <Transcript />
      <PendingRequests />
      <LoopBanner />
      <RetryStatus />
      <Composer />
    </div>
  );
}
