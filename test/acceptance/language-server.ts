/**
 * A language server as an editor drives it: HashiCorp's terraform-ls (`npm run clients` builds it)
 * started with `serve`, spoken to over stdio with JSON-RPC framed as LSP frames it (vscode-jsonrpc,
 * the library VS Code's own clients use). Only what the editor test asks: open a file, completion,
 * hover, signature help, and the diagnostics the server publishes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';

export interface CompletionItem {
  readonly label: string;
  readonly kind?: number;
  readonly detail?: string;
  readonly documentation?: string | { kind: string; value: string };
  readonly deprecated?: boolean;
  /** 1: deprecated. */
  readonly tags?: number[];
}

export interface Diagnostic {
  readonly message: string;
  readonly severity?: number;
  readonly range: { start: { line: number; character: number } };
}

export interface SignatureHelp {
  readonly signatures: { label: string; documentation?: unknown; parameters?: { label: unknown }[] }[];
}

/** Where in a file: zero-based line and UTF-16 column, as LSP counts. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

export class LanguageServer {
  private readonly published = new Map<string, Diagnostic[][]>();
  private readonly waiting: Array<() => void> = [];
  private versions = new Map<string, number>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly connection: MessageConnection,
    readonly log: string[],
  ) {
    connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[] }) => {
      const held = this.published.get(p.uri) ?? [];
      held.push(p.diagnostics);
      this.published.set(p.uri, held);
      for (const wake of this.waiting.splice(0)) wake();
    });
    // Requests the server makes of its client: answered as an editor with no settings answers them.
    connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => null));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onNotification('window/logMessage', (p: { message: string }) => {
      log.push(p.message);
    });
    connection.onNotification('$/progress', () => undefined);
    connection.listen();
  }

  /**
   * Starts `executable serve` for the workspace `root`, with `terraform` (the executable it asks for
   * provider schemas) and the environment that CLI runs with.
   */
  static async start(
    executable: string,
    root: string,
    terraform: string,
    env: NodeJS.ProcessEnv,
  ): Promise<LanguageServer> {
    const child = spawn(executable, ['serve'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const log: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout!),
      new StreamMessageWriter(child.stdin!),
    );
    const server = new LanguageServer(child, connection, log);
    const rootUri = pathToFileURL(root).href;
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'workspace' }],
      initializationOptions: { terraform: { path: terraform } },
      capabilities: {
        textDocument: {
          completion: {
            completionItem: {
              documentationFormat: ['markdown', 'plaintext'],
              deprecatedSupport: true,
              tagSupport: { valueSet: [1] },
            },
          },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          signatureHelp: { signatureInformation: { documentationFormat: ['markdown', 'plaintext'] } },
          publishDiagnostics: { relatedInformation: true },
        },
        workspace: { workspaceFolders: true, configuration: true },
      },
    });
    await connection.sendNotification('initialized', {});
    return server;
  }

  uri(path: string): string {
    return pathToFileURL(path).href;
  }

  /** Opens (or changes to) `text` at `path`, as an editor does when a file is shown or edited. */
  async show(path: string, text: string): Promise<void> {
    const uri = this.uri(path);
    if (!this.versions.has(uri)) {
      this.versions.set(uri, 1);
      await this.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'terraform', version: 1, text },
      });
    }
    // A file opened in a directory terraform-ls has parsed already is parsed only once it changes (its
    // jobs find the directory's state unchanged): the editor's first keystroke, here the same text.
    const version = this.versions.get(uri)! + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    // terraform-ls takes a file in on its own time: until then a request about it is "file not found".
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await this.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
        return;
      } catch (err) {
        if (!/not found/i.test(String(err)) || Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  async completion(path: string, at: Position): Promise<CompletionItem[]> {
    const out = await this.connection.sendRequest<{ items?: CompletionItem[] } | CompletionItem[] | null>(
      'textDocument/completion',
      { textDocument: { uri: this.uri(path) }, position: at },
    );
    return Array.isArray(out) ? out : (out?.items ?? []);
  }

  /** The hover's text (markdown or plain), or null when the server shows none. */
  async hover(path: string, at: Position): Promise<string | null> {
    const out = await this.connection.sendRequest<{ contents: unknown } | null>('textDocument/hover', {
      textDocument: { uri: this.uri(path) },
      position: at,
    });
    if (!out) return null;
    const contents = out.contents as string | { value: string } | Array<string | { value: string }>;
    const parts = Array.isArray(contents) ? contents : [contents];
    return parts.map((p) => (typeof p === 'string' ? p : p.value)).join('\n');
  }

  signatureHelp(path: string, at: Position): Promise<SignatureHelp | null> {
    return this.connection.sendRequest('textDocument/signatureHelp', {
      textDocument: { uri: this.uri(path) },
      position: at,
    });
  }

  /** Resolves with the first diagnostics published for `path` that `accept` takes, or fails after `timeoutMs`. */
  async diagnostics(path: string, accept: (d: Diagnostic[]) => boolean, timeoutMs: number): Promise<Diagnostic[]> {
    const uri = this.uri(path);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (this.published.get(uri) ?? []).find(accept);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no diagnostics for ${path} as expected within ${timeoutMs} ms; published: ` +
            JSON.stringify(this.published.get(uri) ?? []),
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 500));
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([
        this.connection.sendRequest('shutdown').then(() => this.connection.sendNotification('exit')),
        new Promise((resolve) => setTimeout(resolve, 2_000)),
      ]);
    } finally {
      this.connection.dispose();
      this.child.kill('SIGKILL');
    }
  }
}

/** The text of a completion item's documentation. */
export function documentationOf(item: CompletionItem): string {
  const d = item.documentation;
  return typeof d === 'string' ? d : (d?.value ?? '');
}
