/** Test data for the admin console: projects (optionally paid), hubs, pilots, files. */
import { getDb } from '#app/lib/db/db.server.ts'
import { hubs, invoices, payments, projectFiles, projects, type FileCategory } from '#db/schema.ts'

import { sampleFlightArea, sampleFlightPlan } from './flight-plan-data.ts'
import { createTestUser } from './users.ts'

const SAMPLE_FLIGHT_PLAN = sampleFlightPlan([
  sampleFlightArea(1, 30000, [-33.93, -33.94]),
  sampleFlightArea(2, 12000, [-33.95, -33.96]),
])

/** A quoted project as the planner stores it; `paid` adds the paid invoice and settled payment as the ITN would. */
export async function createTestProject(
  options: {
    clientId?: number
    paid?: boolean
    name?: string
    status?: 'draft' | 'pending' | 'assigned' | 'in_progress' | 'completed'
    paidAt?: Date
  } = {},
) {
  const clientId = options.clientId ?? (await createTestUser({ role: 'client' })).id
  const paidAt = options.paid ? (options.paidAt ?? new Date()) : null
  const db = getDb()
  const project = db
    .insert(projects)
    .values({
      clientId,
      name: options.name ?? 'Vineyard survey',
      projectType: 'agricultural-mapping',
      location: 'Stellenbosch, Western Cape',
      latitude: -33.93,
      longitude: 18.86,
      deadline: '2027-01-15',
      polygonGeoJson: JSON.stringify(SAMPLE_FLIGHT_PLAN),
      areaSqm: 42000,
      distanceFromHub: 41.2,
      nearestHub: 'Cape Town',
      basePrice: 225000,
      adjustedPrice: 378000,
      travelFee: 7616,
      aviationFee: 0,
      subtotal: 385616,
      vatAmount: 57842,
      quoteAmount: 443458,
      quotedAt: new Date(),
      status: options.status ?? 'pending',
      isPaid: Boolean(options.paid),
      isApproved: Boolean(options.paid),
      paidAt,
    })
    .returning()
    .get()
  if (options.paid) {
    const invoice = db
      .insert(invoices)
      .values({
        projectId: project.id,
        clientId,
        projectName: project.name,
        amount: 443458,
        subtotalAmount: 385616,
        vatAmount: 57842,
        status: 'paid',
        paidAt,
        paymentTransactionId: `pf-${project.id}`,
        invoiceNumber: `INV-${String(project.id).padStart(6, '0')}`,
      })
      .returning()
      .get()
    db.insert(payments)
      .values({
        mPaymentId: `KAS-${project.id}-TEST`,
        projectId: project.id,
        invoiceId: invoice.id,
        clientId,
        amount: 443458,
        status: 'paid',
        mode: 'simulator',
        pfPaymentId: `pf-${project.id}`,
        paidAt,
      })
      .run()
  }
  return project
}

export function createTestHub(name = 'Test Hub') {
  return getDb()
    .insert(hubs)
    .values({ name, address: 'Somewhere, Western Cape', latitude: -33.9, longitude: 18.4 })
    .returning()
    .get()
}

export function addTestFile(
  projectId: number,
  fileType: string,
  fileCategory: FileCategory = 'project_document',
) {
  return getDb()
    .insert(projectFiles)
    .values({
      projectId,
      fileName: `f-${Math.random()}`,
      originalName: 'x',
      fileUrl: '/x',
      fileType,
      fileSize: 10,
      fileCategory,
    })
    .returning()
    .get()
}
