/**
 * What a tax invoice carries about both parties, frozen on the invoice (ADR 112): the
 * client's name, e-mail, billing address and VAT number, and the supplier's COMPANY_*
 * details at issue. Later profile or configuration changes, and account deletion, leave
 * issued invoices as they were.
 */
import { fullName } from '#app/domain/users/person-name.ts'
import { getCompanyInfo, type CompanyInfo } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { users, type Invoice, type User } from '#db/schema.ts'
import { eq } from 'drizzle-orm'

import type { BillingInput } from './billing.ts'

/** The account's columns a billed party is made from: a query for an invoice's client reads these, not the whole row. */
export const billedClientColumns = {
  firstName: users.firstName,
  lastName: users.lastName,
  companyName: users.companyName,
  email: users.email,
  billingAddress: users.billingAddress,
  vatNumber: users.vatNumber,
  country: users.country,
}
export type BilledClient = Pick<User, keyof typeof billedClientColumns>

export function billingSnapshotOf(client: BilledClient) {
  const name = [fullName(client).trim(), client.companyName].filter(Boolean).join(', ')
  return {
    billingName: name,
    billingEmail: client.email,
    billingAddress: client.billingAddress ?? client.country ?? null,
    billingVatNumber: client.vatNumber ?? null,
  }
}

export function supplierSnapshot(company: CompanyInfo = getCompanyInfo()) {
  return JSON.stringify(company)
}

/** The supplier as it was at issue (the configuration today for invoices made before snapshots). */
export function supplierOf(
  invoice: Pick<Invoice, 'supplierSnapshot'>,
  fallback: CompanyInfo = getCompanyInfo(),
): CompanyInfo {
  if (!invoice.supplierSnapshot) return fallback
  try {
    return { ...fallback, ...(JSON.parse(invoice.supplierSnapshot) as Partial<CompanyInfo>) }
  } catch {
    return fallback
  }
}

/** The client as the invoice carries them (the account today for invoices made before snapshots). */
export function billedPartyOf(
  invoice: Pick<Invoice, 'billingName' | 'billingEmail' | 'billingAddress' | 'billingVatNumber'>,
  client: BilledClient,
) {
  if (invoice.billingName) {
    return {
      name: invoice.billingName,
      email: invoice.billingEmail,
      address: invoice.billingAddress,
      vatNumber: invoice.billingVatNumber,
    }
  }
  const now = billingSnapshotOf(client)
  return {
    name: now.billingName,
    email: now.billingEmail,
    address: now.billingAddress,
    vatNumber: now.billingVatNumber,
  }
}

/** Saves the client's VAT number and billing address (profile and checkout). */
export function saveBillingDetails(userId: number, input: BillingInput, db: DbOrTx = getDb()) {
  db.update(users)
    .set({ vatNumber: input.vatNumber ?? null, billingAddress: input.billingAddress ?? null })
    .where(eq(users.id, userId))
    .run()
}
