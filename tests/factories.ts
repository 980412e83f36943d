/**
 * The one test factory module: users (and their sessions), projects (quoted, paid, with a
 * team, delivered) and their files, written straight through the database or the services.
 * File contents (PNG, PDF, MP4 bytes) are in `helpers/files.ts`; end-to-end seeds in `e2e/`.
 */
import crypto, { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { hashPassword } from '#app/domain/auth/password.server.ts'
import { createSession } from '#app/domain/auth/session.server.ts'
import { storeProjectFile } from '#app/domain/files/project-files.server.ts'
import { storagePaths } from '#app/domain/files/storage-paths.server.ts'
import { recomputeQuote, storeRecomputedQuote } from '#app/domain/payments/quote-recompute.server.ts'
import { insertUser } from '#app/domain/users/users.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import {
  hubs,
  invoices,
  payments,
  projectFiles,
  projects,
  sites,
  type DeliverableKind,
  type FileCategory,
  type ProjectStatus,
  type Role,
} from '#db/schema.ts'
import { ensurePricingSettings } from '#db/seed.ts'
import { eq } from 'drizzle-orm'

import { mp4Bytes, pdfBytes, PNG_BYTES } from './helpers/files.ts'
import { sampleFlightArea, sampleFlightPlan } from './helpers/flight-plan-data.ts'

// Users

export const TEST_PASSWORD = 'correct-horse-42'

// Hashed once for the whole run by tests/setup/vitest-global-setup.ts when vitest runs it.
let cachedHash: string | undefined = process.env.KESTREL_TEST_PASSWORD_HASH

export async function createTestUser(
  overrides: { role?: Role; email?: string; password?: string; isActive?: boolean; firstName?: string } = {},
) {
  const password = overrides.password ?? TEST_PASSWORD
  const passwordHash =
    password === TEST_PASSWORD
      ? (cachedHash ??= await hashPassword(TEST_PASSWORD))
      : await hashPassword(password)
  const role = overrides.role ?? 'client'
  return insertUser({
    email: overrides.email ?? `${role}-${randomBytes(4).toString('hex')}@example.test`,
    passwordHash,
    firstName: overrides.firstName ?? role[0]!.toUpperCase() + role.slice(1),
    lastName: 'Tester',
    role,
    phone: '821234567',
    country: 'South Africa',
    isActive: overrides.isActive ?? true,
  })
}

/** A user with a live session, and the headers that authenticate as them. */
export async function signedInUser(role: Role = 'client') {
  const user = await createTestUser({ role })
  const { token } = await createSession(user.id)
  return { user, token, headers: { 'x-session-id': token } }
}

// Projects

const SAMPLE_FLIGHT_PLAN = sampleFlightPlan([
  sampleFlightArea(1, 30000, [-33.93, -33.94]),
  sampleFlightArea(2, 12000, [-33.95, -33.96]),
])

/** Where the factories' vineyard projects lie: a project's place as the planner stores it. */
const STELLENBOSCH = { location: 'Stellenbosch, Western Cape', latitude: -33.93, longitude: 18.86 }
const CONSTANTIA = { location: 'Constantia, Cape Town', latitude: -34.0135, longitude: 18.4315 }

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
      ...STELLENBOSCH,
      deadline: '2027-01-15',
      flightPlan: JSON.stringify(SAMPLE_FLIGHT_PLAN),
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

export function insertProject(values: {
  clientId: number
  pilotId?: number | null
  status?: ProjectStatus
  completedAt?: Date | null
}) {
  return getDb()
    .insert(projects)
    .values({
      clientId: values.clientId,
      pilotId: values.pilotId ?? null,
      name: 'Survey of Erf 123',
      projectType: 'land-survey',
      status: values.status ?? 'assigned',
      completedAt: values.completedAt ?? null,
    })
    .returning()
    .get()
}

/** A project of a new client, flown by a new pilot, and a new admin: each signed in. */
export async function projectWithTeam(values: { status?: ProjectStatus; completedAt?: Date | null } = {}) {
  const client = await signedInUser('client')
  const pilot = await signedInUser('pilot')
  const admin = await signedInUser('admin')
  const project = insertProject({ clientId: client.user.id, pilotId: pilot.user.id, ...values })
  return { client, pilot, admin, project }
}

/** A client's site: the place its surveys are compared over time. */
export function insertSite(clientId: number, name: string) {
  return getDb().insert(sites).values({ clientId, name }).returning().get()
}

/** A completed survey of the site whose plan's one area is `ring` ([lng, lat] pairs). */
export function completedSiteSurvey(
  site: { id: number; clientId: number },
  ring: Array<[number, number]>,
  completedAt: Date,
  pilotId: number | null = null,
) {
  const project = insertProject({ clientId: site.clientId, pilotId, status: 'completed', completedAt })
  const coordinates = ring.map(([longitude, latitude]) => ({ latitude, longitude }))
  const plan = { areas: [{ areaNumber: 1, coordinates }], pricing: { totalInCents: 0 } }
  getDb()
    .update(projects)
    .set({ siteId: site.id, flightPlan: JSON.stringify(plan) })
    .where(eq(projects.id, project.id))
    .run()
  return getProject(project.id)
}

export function getProject(id: number) {
  return getDb().select().from(projects).where(eq(projects.id, id)).get()!
}

/** About 4.4 ha in Constantia, Cape Town (local tier from the Cape Town hub). */
export const CAPE_TOWN_AREA = [
  { pointNumber: 1, latitude: -34.0125, longitude: 18.4305 },
  { pointNumber: 2, latitude: -34.0125, longitude: 18.4325 },
  { pointNumber: 3, latitude: -34.0145, longitude: 18.4325 },
  { pointNumber: 4, latitude: -34.0145, longitude: 18.4305 },
]

function ensureCapeTownHub() {
  const db = getDb()
  ensurePricingSettings()
  const existing = db.select().from(hubs).where(eq(hubs.name, 'Cape Town')).get()
  if (existing) return existing
  return db
    .insert(hubs)
    .values({ name: 'Cape Town', address: 'Cape Town, Western Cape', latitude: -33.9249, longitude: 18.4241 })
    .returning()
    .get()
}

/** A pending project with a saved flight plan and the server's own quote stored on it. */
export async function createQuotedProject(
  clientId: number,
  overrides: { name?: string; coordinates?: typeof CAPE_TOWN_AREA } = {},
) {
  ensureCapeTownHub()
  const coordinates = overrides.coordinates ?? CAPE_TOWN_AREA
  const plan = {
    address: 'Constantia, Cape Town',
    projectType: 'agricultural-mapping',
    areas: [{ areaNumber: 1, coordinates }],
  }
  const project = getDb()
    .insert(projects)
    .values({
      clientId,
      name: overrides.name ?? 'Vineyard block survey',
      description: 'NDVI and orthomosaic of the north block',
      projectType: 'agricultural-mapping',
      ...CONSTANTIA,
      deadline: '2026-12-15',
      status: 'pending',
      flightPlan: JSON.stringify(plan),
    })
    .returning()
    .get()
  const quote = await recomputeQuote([{ coordinates }])
  storeRecomputedQuote(project.id, quote)
  return { project: getProject(project.id), quote }
}

/** Client, other client, pilot, admin, and a project completed `completedDaysAgo` ago with three deliverables. */
export async function deliveredProject({ completedDaysAgo = 1 }: { completedDaysAgo?: number } = {}) {
  const client = await signedInUser('client')
  const otherClient = await signedInUser('client')
  const pilot = await signedInUser('pilot')
  const admin = await signedInUser('admin')
  const project = insertProject({ clientId: client.user.id, pilotId: pilot.user.id, status: 'in_progress' })
  const adminActor = { id: admin.user.id, role: 'admin' as const }
  const report = await storeDeliverable(adminActor, project.id, 'Survey report.pdf', await pdfBytes('Report'))
  const image = await storeDeliverable(adminActor, project.id, 'Orthomosaic preview.png', PNG_BYTES)
  const video = await storeDeliverable(adminActor, project.id, 'Flyover.mp4', mp4Bytes(64 * 1024))
  // The kinds the content check gives these files (set here so the tests don't depend on it).
  for (const [file, kind] of [
    [report, 'report'],
    [image, 'image'],
    [video, 'video'],
  ] as const) {
    getDb().update(projectFiles).set({ deliverableKind: kind }).where(eq(projectFiles.id, file.id)).run()
  }
  const completedAt = new Date(Date.now() - completedDaysAgo * 24 * 60 * 60 * 1000)
  getDb().update(projects).set({ status: 'completed', completedAt }).where(eq(projects.id, project.id)).run()
  return { client, otherClient, pilot, admin, project, files: { report, image, video } }
}

// Files

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

/** Stores a built raster as a project's deliverable of this kind (the row the upload path would write). */
export async function storeRasterDeliverable(
  projectId: number,
  source: string,
  kind: DeliverableKind,
  uploadedBy: number,
) {
  const key = `projects/${projectId}/${crypto.randomUUID()}.tif`
  const target = path.join(storagePaths().root, key)
  await fs.mkdir(path.dirname(target), { recursive: true })
  await fs.copyFile(source, target)
  const { size } = await fs.stat(target)
  return getDb()
    .insert(projectFiles)
    .values({
      projectId,
      fileName: key,
      originalName: path.basename(source),
      fileUrl: '',
      fileType: 'image/tiff',
      fileSize: size,
      fileCategory: 'processed_deliverable',
      uploadedBy,
      deliverableKind: kind,
    })
    .returning()
    .get()
}

export async function storeDeliverable(
  admin: { id: number; role: 'admin' },
  projectId: number,
  name: string,
  bytes: Uint8Array,
) {
  return storeProjectFile({
    user: admin,
    projectId,
    category: 'processed_deliverable',
    originalName: name,
    source: Readable.from([Buffer.from(bytes)]),
  })
}
