// undici's Pool with its request API, without undici's index, which also loads fetch, WebSocket,
// EventSource, caches and mocks (~20 ms of ConfigureProvider, paid by every configured process).
// The index adds the request API to Dispatcher.prototype; this does the same, and nothing else.
// Deep paths into undici: a layout change fails the build and the client tests, not silently.
import Pool from 'undici/lib/dispatcher/pool.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';

Object.assign(Dispatcher.prototype, api);

export { Pool };
