/**
 * Invoices as clients see them (the Invoices & Quotes tab and the API lists):
 * their own only. A paid invoice is a tax invoice with a sequential number.
 */
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { plannedFlightHeightM } from '#app/domain/survey/project-plan.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { invoices, projects, users, type Invoice, type Project, type User } from '#db/schema.ts'
import { and, desc, eq, ne } from 'drizzle-orm'

import { termsAsText, termsFigures } from './terms.ts'

export interface InvoiceView {
  id: number
  invoiceNumber: string
  taxInvoiceNumber: number | null
  projectId: number
  clientId: number
  projectName: string
  description: string | null
  amount: number
  subtotalAmount: number
  vatAmount: number
  /** A repeat project's discount, frozen at its quote: percent, cents ex VAT; 0 for none. */
  repeatDiscountPercent: number
  repeatDiscount: number
  paymentMethod: string
  paymentTransactionId: string | null
  status: string
  dueDate: string | null
  paidAt: string | null
  createdAt: string
  updatedAt: string
  project: {
    name: string
    description: string | null
    location: string | null
    projectType: string
    deadline: string | null
    /** The quote's travel fee (cents), quoted by the terms shown with the invoice. */
    travelFee: number | null
    /** The survey plan's height above ground (m), also quoted by the terms. */
    flightHeightM: number | null
    createdAt: string
  }
}

export interface InvoiceDetail extends InvoiceView {
  termsAndConditions: string
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null)

function toInvoiceView(invoice: Invoice, project: Project): InvoiceView {
  return {
    id: invoice.id,
    invoiceNumber: invoice.invoiceNumber ?? `INV-${String(invoice.id).padStart(6, '0')}`,
    taxInvoiceNumber: invoice.taxInvoiceNumber,
    projectId: invoice.projectId,
    clientId: invoice.clientId,
    projectName: invoice.projectName,
    description: invoice.description,
    amount: invoice.amount,
    subtotalAmount: invoice.subtotalAmount,
    vatAmount: invoice.vatAmount,
    repeatDiscountPercent: project.repeatDiscountPercent,
    repeatDiscount: project.repeatDiscount,
    paymentMethod: invoice.paymentMethod,
    paymentTransactionId: invoice.paymentTransactionId,
    status: invoice.status,
    dueDate: iso(invoice.dueDate),
    paidAt: iso(invoice.paidAt),
    createdAt: invoice.createdAt.toISOString(),
    updatedAt: invoice.updatedAt.toISOString(),
    project: {
      name: project.name,
      description: project.description,
      location: project.location,
      projectType: project.projectType,
      deadline: project.deadline,
      createdAt: project.createdAt.toISOString(),
      travelFee: project.travelFee,
      flightHeightM: plannedFlightHeightM(project.surveyPlan),
    },
  }
}

/** The client's invoices, newest first (without those a changed quote voided before payment). */
export function listClientInvoices(clientId: number): InvoiceView[] {
  return getDb()
    .select({ invoice: invoices, project: projects })
    .from(invoices)
    .innerJoin(projects, eq(projects.id, invoices.projectId))
    .where(and(eq(invoices.clientId, clientId), ne(invoices.status, 'superseded')))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .all()
    .map((r) => toInvoiceView(r.invoice, r.project))
}

/** One of the client's invoices with the terms, or null (not theirs or unknown). */
export function getClientInvoice(clientId: number, invoiceId: number): InvoiceDetail | null {
  const row = getDb()
    .select({ invoice: invoices, project: projects })
    .from(invoices)
    .innerJoin(projects, eq(projects.id, invoices.projectId))
    .where(and(eq(invoices.id, invoiceId), eq(invoices.clientId, clientId)))
    .get()
  return row
    ? {
        ...toInvoiceView(row.invoice, row.project),
        termsAndConditions: termsAsText(termsFigures(getPricingSettings(), row.project)),
      }
    : null
}

/** A paid invoice for its owner or an admin, with the client, for the tax invoice PDF. */
export function getTaxInvoiceSource(user: Pick<User, 'id' | 'role'>, invoiceId: number) {
  const row = getDb()
    .select({ invoice: invoices, project: projects, client: users })
    .from(invoices)
    .innerJoin(projects, eq(projects.id, invoices.projectId))
    .innerJoin(users, eq(users.id, invoices.clientId))
    .where(eq(invoices.id, invoiceId))
    .get()
  if (!row) return { status: 'not-found' as const }
  if (user.role !== 'admin' && row.invoice.clientId !== user.id) return { status: 'not-found' as const }
  if (row.invoice.status !== 'paid' || row.invoice.taxInvoiceNumber == null)
    return { status: 'unpaid' as const }
  return { status: 'ok' as const, ...row }
}
