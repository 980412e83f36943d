/** The figures on the three role dashboards, straight from the database. */
import { getDb } from '#app/lib/db/db.server.ts'
import { flightLogs, invoices, projects, users } from '#db/schema.ts'
import { and, count, eq, gte, inArray, sql, sum } from 'drizzle-orm'

function startOfYear(now = new Date()) {
  return new Date(now.getFullYear(), 0, 1)
}
function startOfMonth(now = new Date()) {
  return new Date(now.getFullYear(), now.getMonth(), 1)
}

/** activeProjects (in progress), pendingProjects (awaiting a pilot), totalSpent (paid this year, cents). */
export function getClientStats(clientId: number) {
  const db = getDb()
  const byStatus = db
    .select({ status: projects.status, n: count() })
    .from(projects)
    .where(eq(projects.clientId, clientId))
    .groupBy(projects.status)
    .all()
  const n = (s: string) => byStatus.find((r) => r.status === s)?.n ?? 0
  const spent = db
    .select({ total: sum(invoices.amount) })
    .from(invoices)
    .where(
      and(eq(invoices.clientId, clientId), eq(invoices.status, 'paid'), gte(invoices.paidAt, startOfYear())),
    )
    .get()
  return {
    activeProjects: n('in_progress'),
    pendingProjects: n('pending'),
    totalSpent: Number(spent?.total ?? 0),
  }
}

/**
 * activeProjects (assigned or in progress), totalFlightHours, flightHoursThisMonth (the API's
 * figures, to 0.1 h) and the same totals in whole minutes, which the dashboard prints.
 */
export function getPilotStats(pilotId: number) {
  const db = getDb()
  const active = db
    .select({ n: count() })
    .from(projects)
    .where(and(eq(projects.pilotId, pilotId), inArray(projects.status, ['assigned', 'in_progress'])))
    .get()
  const total = db
    .select({ h: sum(flightLogs.hours) })
    .from(flightLogs)
    .where(eq(flightLogs.pilotId, pilotId))
    .get()
  const month = db
    .select({ h: sum(flightLogs.hours) })
    .from(flightLogs)
    .where(and(eq(flightLogs.pilotId, pilotId), gte(flightLogs.loggedAt, startOfMonth())))
    .get()
  const round = (v: unknown) => Math.round(Number(v ?? 0) * 10) / 10
  const minutes = (v: unknown) => Math.round(Number(v ?? 0) * 60)
  return {
    activeProjects: active?.n ?? 0,
    totalFlightHours: round(total?.h),
    flightHoursThisMonth: round(month?.h),
    totalFlightMinutes: minutes(total?.h),
    flightMinutesThisMonth: minutes(month?.h),
  }
}

export function getAdminStats() {
  const db = getDb()
  const byStatus = db
    .select({ status: projects.status, n: count() })
    .from(projects)
    .groupBy(projects.status)
    .all()
  const n = (s: string) => byStatus.find((r) => r.status === s)?.n ?? 0
  const totalProjects = byStatus.reduce((acc, r) => acc + r.n, 0)
  const userCounts = db.select({ role: users.role, n: count() }).from(users).groupBy(users.role).all()
  const revenue = db
    .select({ total: sql<number>`coalesce(sum(${invoices.amount}), 0)` })
    .from(invoices)
    .where(eq(invoices.status, 'paid'))
    .get()
  return {
    totalProjects,
    pendingProjects: n('pending'),
    activeProjects: n('assigned') + n('in_progress'),
    completedProjects: n('completed'),
    clients: userCounts.find((r) => r.role === 'client')?.n ?? 0,
    pilots: userCounts.find((r) => r.role === 'pilot')?.n ?? 0,
    revenue: Number(revenue?.total ?? 0),
  }
}
