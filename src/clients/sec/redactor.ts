/**
 * Scrubs known secrets (API key, secret, access tokens) out of text before it can reach an error
 * message or a log line: a server may echo what it was sent.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    // Very short values would redact ordinary words; real keys and tokens are long.
    if (secret && secret.length >= 8) this.secrets.add(secret);
  }

  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) result = result.split(secret).join('***');
    return result;
  }
}
