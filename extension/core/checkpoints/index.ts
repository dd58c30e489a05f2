export { CheckpointStore, NoCheckpointError, type Checkpoint, type CheckpointStoreOptions, type RestorePlan, type SnapshotResult } from './store';
export { diffStatLine, statLine, type ChangeStatus, type FileChange, type FileStat } from './changes';
export { describeChange, restoreListing } from './restore-list';
export { userMessageLines } from './transcript';
