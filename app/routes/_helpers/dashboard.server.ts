/**
 * The role dashboard: one route, three views. This module
 * gathers what each view needs; the route picks by role.
 */
import { getAdminStats, getClientStats, getPilotStats } from '#app/domain/dashboard/stats.server.ts'
import { listPilotCopies, toCopyView } from '#app/domain/operator/document-copies.server.ts'
import { listClientInvoices } from '#app/domain/payments/invoices.server.ts'
import { listClientRefunds } from '#app/domain/payments/refunds.server.ts'
import { termsSettingsOf } from '#app/domain/payments/terms.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { siteCardsOfClient } from '#app/domain/sites/sites.server.ts'
import { loadAdminTab } from '#app/routes/_helpers/admin-tabs.server.ts'
import { loadClientProjectTabs } from '#app/routes/_helpers/client-dashboard.server.ts'
import { loadPilotTabs } from '#app/routes/_helpers/pilot-dashboard.server.ts'
import type { User } from '#db/schema.ts'

/** `url` carries the dashboard's URL state (tab, search query, open dialogs; the admin tab and its filters). */
export async function loadRoleDashboard(user: User, url: URL = new URL('http://localhost/dashboard')) {
  const profile = {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    companyName: user.companyName,
    vatNumber: user.vatNumber,
    billingAddress: user.billingAddress,
    marketingOptIn: user.marketingOptIn,
  }
  switch (user.role) {
    case 'client':
      return {
        role: 'client' as const,
        profile,
        stats: getClientStats(user.id),
        ...loadClientProjectTabs(user.id, url),
        // Thumbnails and deliverables of every site: read only when the Sites tab is open.
        sites: url.searchParams.get('tab') === 'sites' ? siteCardsOfClient(user.id) : [],
        invoices: listClientInvoices(user.id),
        creditNotes: listClientRefunds(user.id),
        // Each invoice's terms quote its own travel fee: the dialog adds it.
        invoiceTermsSettings: termsSettingsOf(getPricingSettings()),
      }
    case 'pilot':
      return {
        role: 'pilot' as const,
        profile: {
          ...profile,
          id: user.id,
          serviceArea: user.serviceArea,
          droneTypes: user.droneTypes,
          pilotLicenseNumber: user.pilotLicenseNumber,
          pilotLicenseUrl: user.pilotLicenseUrl,
          rplNumber: user.rplNumber,
          rplExpiresAt: user.rplExpiresAt,
          medicalExpiresAt: user.medicalExpiresAt,
          documentCopies: Object.fromEntries(
            listPilotCopies(user.id).map((c) => [c.pilotDocument, toCopyView(c)]),
          ),
        },
        stats: getPilotStats(user.id),
        ...(await loadPilotTabs(user.id, url)),
      }
    case 'admin':
      return { role: 'admin' as const, profile, stats: getAdminStats(), admin: await loadAdminTab(url) }
    default:
      return { role: 'unknown' as const }
  }
}
