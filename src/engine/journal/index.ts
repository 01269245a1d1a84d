/**
 * The journal part: the records of creates that outlive the process
 * (docs/decisions.md, "Creates outlive their process"). create-journal.ts writes and retires them; the
 * directory that holds them (journal-directory.ts, where: journal-place.ts), its files (journal-files.ts),
 * each process's log (journal-log.ts) and file (journal-process.ts), the index of records
 * (journal-index.ts), and the notes of which objects each workspace's state holds (journal-notes.ts). It
 * knows nothing of the rest of the engine; what a record proves is the creates part's.
 */export { CreateJournal, HAND_OVER_MS, type OpenRecord, type RecordHandle } from './create-journal.js';
export { type CreateEntry, digest } from './journal-files.js';
export { notesHold, type WorkspaceNotes } from './journal-notes.js';
export { journalPlace, type JournalPlace } from './journal-place.js';
export { HEARTBEAT_MS } from './journal-process.js';
