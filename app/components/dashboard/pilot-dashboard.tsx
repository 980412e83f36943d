import { PrivacyControls } from '#app/components/account/privacy-controls.tsx'
import { DocumentCopyForm } from '#app/components/files/document-copy-form.tsx'
import { DashboardHeading } from '#app/components/layout/app-shell.tsx'
import { OfflineBanner, useOfflineWorker } from '#app/components/offline/offline-controls.tsx'
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import { StatCard } from '#app/components/ui/stat-card.tsx'
import { TabLinks, useActiveTab } from '#app/components/ui/tabs.tsx'
import { PILOT_DOCUMENT_LABELS } from '#app/domain/operator/document-copies.ts'
import { formatFlightMinutes } from '#app/domain/pilot/schemas.ts'
import { PILOT_CERTIFICATION_LEVEL, pilotLicenceDisplay } from '#app/domain/users/pilot-licence.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import type { PilotDocumentKind } from '#db/schema.ts'

import { FlightLogsTab } from './pilot/flight-logs-tab.tsx'
import { PilotProjectsTab } from './pilot/projects-tab.tsx'
import type { FlightLogRow, OpenJob, PilotJob } from './pilot/types.ts'
import { ProfileForm } from './profile-form.tsx'
import { WelcomeBanner } from './welcome-banner.tsx'

const PILOT_TABS = [
  { id: 'projects', label: 'My Projects' },
  { id: 'flight-logs', label: 'Flight Logs' },
  { id: 'profile', label: 'Profile' },
] as const

export interface PilotProfile {
  id: number
  marketingOptIn?: boolean
  firstName: string
  lastName: string
  email: string
  phone: string | null
  companyName: string | null
  serviceArea: string | null
  droneTypes: string | null
  pilotLicenseNumber: string | null
  pilotLicenseUrl: string | null
  rplNumber?: string | null
  rplExpiresAt?: string | null
  medicalExpiresAt?: string | null
  /** Uploaded copies by document ('rpl', 'medical'). */
  documentCopies?: Partial<Record<PilotDocumentKind, { id: number; originalName: string; fileSize: number }>>
}

export function PilotDashboard({
  profile,
  stats,
  welcome,
  projects,
  openJob,
  flightLogs,
  tileUrl,
}: {
  profile: PilotProfile
  stats: { activeProjects: number; totalFlightMinutes: number; flightMinutesThisMonth: number }
  welcome: string | null
  projects: PilotJob[]
  openJob: OpenJob | null
  flightLogs: FlightLogRow[]
  tileUrl: string
}) {
  const tab = useActiveTab(PILOT_TABS, 'projects')
  useOfflineWorker(profile.id, tileUrl)
  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-6 sm:px-6 sm:py-8">
      <OfflineBanner />
      <WelcomeBanner message={welcome} />
      <DashboardHeading
        title="Pilot Dashboard"
        subtitle={`Welcome back, ${profile.firstName}. Here are your assigned survey flights.`}
      />
      <div className="grid grid-cols-2 gap-3 sm:gap-4">
        <StatCard label="Assigned Projects" value={stats.activeProjects} hint="Active assignments" />
        <StatCard
          label="Flight Hours"
          value={formatFlightMinutes(stats.totalFlightMinutes)}
          hint={`${formatFlightMinutes(stats.flightMinutesThisMonth)} this month`}
        />
      </div>
      <TabLinks tabs={PILOT_TABS} active={tab} label="Pilot dashboard sections" />
      {tab === 'projects' ? (
        <PilotProjectsTab projects={projects} openJob={openJob} tileUrl={tileUrl} pilotId={profile.id} />
      ) : null}
      {tab === 'flight-logs' ? <FlightLogsTab logs={flightLogs} /> : null}
      {tab === 'profile' ? (
        <ProfileForm
          profile={profile}
          withCompany={false}
          description="Keep your name and phone current: clients and the office reach you on survey day."
        >
          <section aria-labelledby="pilot-credentials-heading" className="mt-6 border-t border-ink-100 pt-5">
            <h3 id="pilot-credentials-heading" className="text-sm font-semibold text-ink-950">
              Pilot credentials
            </h3>
            <dl className="mt-3 grid gap-4 text-sm sm:grid-cols-2">
              <DetailRow layout="stacked" label="Pilot licence">
                <span className="font-mono">{pilotLicenceDisplay(profile.id)}</span>
              </DetailRow>
              <DetailRow layout="stacked" label="Certification level">
                {PILOT_CERTIFICATION_LEVEL}
              </DetailRow>
              <DetailRow layout="stacked" label="Licence number">
                {profile.pilotLicenseNumber ?? '—'}
              </DetailRow>
              <DetailRow layout="stacked" label="Service area">
                {profile.serviceArea ?? '—'}
              </DetailRow>
              <DetailRow layout="stacked" label="Drone types" className="sm:col-span-2">
                {profile.droneTypes ?? '—'}
              </DetailRow>
            </dl>
          </section>
        </ProfileForm>
      ) : null}
      {tab === 'profile' ? <PilotDocuments profile={profile} /> : null}
      {tab === 'profile' ? <PrivacyControls marketingOptIn={profile.marketingOptIn ?? false} /> : null}
    </main>
  )
}

/** The pilot's SACAA documents: expiry dates (kept by the office) and their own uploaded copies. */
function PilotDocuments({ profile }: { profile: PilotProfile }) {
  const rows: Array<[PilotDocumentKind, string | null | undefined]> = [
    ['rpl', profile.rplExpiresAt],
    ['medical', profile.medicalExpiresAt],
  ]
  return (
    <section className="card p-4 sm:p-6" aria-labelledby="pilot-documents-heading">
      <h2 id="pilot-documents-heading" className="text-lg font-semibold text-ink-950">
        Licence and medical
      </h2>
      <p className="mt-1 text-sm text-ink-500">
        Upload a copy (PDF, JPG or PNG, up to 10 MB) of each; the office records the expiry dates. You cannot
        be assigned to flights while either has expired.
      </p>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2" data-testid="pilot-own-documents">
        {rows.map(([kind, expires]) => (
          <li key={kind} className="rounded-xl border border-ink-100 p-4 text-sm">
            <p className="font-medium text-ink-900">{PILOT_DOCUMENT_LABELS[kind]}</p>
            <p className="mb-2 text-ink-500">
              {kind === 'rpl' && profile.rplNumber ? `${profile.rplNumber} · ` : ''}
              {expires ? `Expires ${formatDate(expires)}` : 'Expiry not on record'}
            </p>
            <DocumentCopyForm
              target={{ pilotId: profile.id, document: kind }}
              copy={profile.documentCopies?.[kind]}
              label={PILOT_DOCUMENT_LABELS[kind]}
              back="/dashboard?tab=profile"
            />
          </li>
        ))}
      </ul>
    </section>
  )
}
