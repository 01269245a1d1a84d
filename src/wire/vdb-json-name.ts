/**
 * A vdb field's name in the plain objects both sides of the client read and write (`cloud_provider_id` →
 * `cloudProviderId`): the client's codec names every field so, and the wired attributes find their field
 * by it (src/resources/vdb/wired-fields.ts).
 */
export function jsonName(field: string): string {
  return field.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}
