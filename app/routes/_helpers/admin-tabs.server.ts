/**
 * What each admin tab loads (only the open tab's data is read). The tab comes from
 * `?tab=` or, inside a dialog route such as /admin/users/new, from the path.
 */
import { listAllProjects } from '#app/domain/admin/admin-projects.server.ts'
import { listZonesForAdmin } from '#app/domain/admin/airspace-admin.server.ts'
import { financialReport, parseDateRange } from '#app/domain/admin/finance.server.ts'
import { systemHealth } from '#app/domain/admin/health.server.ts'
import { listPilots, listUsers } from '#app/domain/admin/users.server.ts'
import { getMaterials } from '#app/domain/annotations/materials.server.ts'
import { materialsText } from '#app/domain/annotations/materials.ts'
import { getDeliverableSettings } from '#app/domain/deliverables/settings.server.ts'
import { listHubs } from '#app/domain/hubs/hubs.server.ts'
import { listDocumentCopies } from '#app/domain/operator/document-copies.server.ts'
import {
  listExpiringItems,
  listOperatorDocuments,
  listPilotDocuments,
} from '#app/domain/operator/operator-documents.server.ts'
import { listRefundsForAdmin } from '#app/domain/payments/refunds.server.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { listAllJobs } from '#app/domain/processing/jobs.server.ts'
import { nodesForSettings } from '#app/domain/processing/processing-panel.server.ts'
import { listDroneProfiles } from '#app/domain/survey/drone-profiles.server.ts'
import { pilotLicenceDisplay } from '#app/domain/users/pilot-licence.ts'
import { listAuditLog } from '#app/lib/audit/audit.server.ts'
import { pageParam } from '#app/lib/http/query.ts'

export const ADMIN_TAB_IDS = [
  'projects',
  'users',
  'pilots',
  'airspace',
  'financial',
  'settings',
  'audit',
  'compliance',
  'profile',
] as const
export type AdminTabId = (typeof ADMIN_TAB_IDS)[number]

const PATH_TABS: Record<string, AdminTabId> = {
  projects: 'projects',
  users: 'users',
  pilots: 'pilots',
  airspace: 'airspace',
  hubs: 'settings',
  drones: 'settings',
  financial: 'financial',
  settings: 'settings',
  audit: 'audit',
  'operator-documents': 'compliance',
  refunds: 'compliance',
}

function adminTabFor(url: URL): AdminTabId {
  const wanted = url.searchParams.get('tab')
  if (wanted && (ADMIN_TAB_IDS as readonly string[]).includes(wanted)) return wanted as AdminTabId
  const segment = url.pathname.match(/^\/admin\/([^/]+)/)?.[1]
  return (segment && PATH_TABS[segment]) || 'projects'
}

export async function loadAdminTab(url: URL) {
  const tab = adminTabFor(url)
  const params = url.searchParams
  switch (tab) {
    case 'projects': {
      const query = {
        q: params.get('q') ?? '',
        status: params.get('status') ?? '',
        page: pageParam(params.get('page')),
      }
      return { tab, list: listAllProjects(query), query }
    }
    case 'users':
      return { tab, users: listUsers() }
    case 'pilots':
      return { tab, pilots: listPilots().map((p) => ({ ...p, licenceDisplay: pilotLicenceDisplay(p.id) })) }
    case 'airspace': {
      const showAll = params.get('zones') === 'all'
      return { tab, showAll, ...listZonesForAdmin({ all: showAll }) }
    }
    case 'financial': {
      const range = parseDateRange(params)
      return { tab, range: { from: range.fromText, to: range.toText }, report: financialReport(range) }
    }
    case 'settings':
      return {
        tab,
        hubs: listHubs(),
        drones: listDroneProfiles(),
        pricing: getPricingSettings(),
        health: await systemHealth(),
        deliverables: getDeliverableSettings(),
        materials: materialsText(getMaterials()),
        processingNodes: nodesForSettings(),
        processingJobs: listAllJobs(20),
      }
    case 'audit':
      return { tab, audit: listAuditLog({ page: pageParam(params.get('page')) }) }
    case 'compliance':
      return {
        tab,
        documents: listOperatorDocuments(),
        expiring: listExpiringItems(),
        pilots: listPilotDocuments(),
        copies: listDocumentCopies(),
        refunds: listRefundsForAdmin(),
      }
    case 'profile':
      return { tab }
  }
}
export type AdminTabData = Awaited<ReturnType<typeof loadAdminTab>>
