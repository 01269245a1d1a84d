export { CreateJournal, type OpenRecord, type RecordHandle, type Seen } from './create-journal.js';
export { type CreateEntry, digest } from './journal-files.js';
export {
  notesHold,
  notesName,
  stateLabel,
  type StateName,
  type ThisRun,
  type WorkspaceNotes,
} from './journal-notes.js';
export { backendOf, journalPlace, type JournalPlace, type StateIdentity } from './journal-place.js';
export { HEARTBEAT_MS } from './journal-process.js';
export type { OtherRecord } from './journal-directory.js';
