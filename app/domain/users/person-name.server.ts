import { sql, type AnyColumn } from 'drizzle-orm'

/** "First Last" of an account, read in the query (from `users` or one of its aliases). */
export function personName(table: { firstName: AnyColumn; lastName: AnyColumn }) {
  return sql<string>`${table.firstName} || ' ' || ${table.lastName}`
}
