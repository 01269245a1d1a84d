/** The `data` of every alert channel type is sec's contract's (src/wire/sec-contract/alert-channels.ts). */
export { ALERT_CHANNEL_DATA_SPECS } from '../../wire/sec-contract/alert-channels.js';
