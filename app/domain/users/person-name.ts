/** "First Last" of an account already read (in a query, `personName` in person-name.server.ts says it). */
export function fullName(person: { firstName: string; lastName: string }) {
  return `${person.firstName} ${person.lastName}`
}
