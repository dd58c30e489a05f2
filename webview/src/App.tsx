import { Announcer } from './components/Announcer';
import { LoopBanner, RetryStatus, SessionNotices } from './components/Banners';
import { Composer } from './components/composer/Composer';
import { Header } from './components/Header';
import { ChangedFiles } from './components/ChangedFiles';
import { PendingRequests } from './components/Requests';
import { PlanApproval } from './components/plan/PlanApproval';
import { TodoList } from './components/plan/TodoList';
import { QueuedMessages } from './components/queue/QueuedMessages';
import { Transcript } from './components/Transcript';

/** The chat view: header, notices, the conversation, what the host waits on, then the composer. */
export function App() {
  return (
    <div className="app">
      <Header />
      <SessionNotices />
      <Transcript />
      <PendingRequests />
      <ChangedFiles />
      <LoopBanner />
      <RetryStatus />
      <PlanApproval />
      <TodoList />
      <QueuedMessages />
      <Composer />
      <Announcer />
    </div>
  );
}
