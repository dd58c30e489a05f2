export { CheckpointStore, NoCheckpointError, type Checkpoint, type CheckpointStoreOptions, type RestorePlan, type RestoreResult, type SnapshotResult } from './store';
export { isPointName, parseTarget, targetWords, type PointName, type RestorePoint, type RestoreTarget } from './restore-points';
export { diffStatLine, statLine, type ChangeStatus, type FileChange, type FileStat } from './changes';
export { describeChange, restoreListing } from './restore-list';
export { userMessageLines } from './transcript';
export { RestoreNotDoneError, RestorePartlyDoneError } from './restore-apply';
export { WorkspaceBusyError } from './writer-lock';
export { workspaceCoordinationDir } from './coordination';
