import { DashboardHeading } from '#app/components/layout/app-shell.tsx'
import { StatCard } from '#app/components/ui/stat-card.tsx'
import { TabLinks, useActiveTab } from '#app/components/ui/tabs.tsx'
import { PILOT_CERTIFICATION_LEVEL, pilotLicenceDisplay } from '#app/domain/users/pilot-licence.ts'
import { WelcomeBanner } from './welcome-banner.tsx'

export const PILOT_TABS = [
  { id: 'projects', label: 'My Projects' },
  { id: 'flight-logs', label: 'Flight Logs' },
  { id: 'profile', label: 'Profile' },
] as const

export interface PilotProfile {
  id: number
  firstName: string
  lastName: string
  email: string
  phone: string | null
  serviceArea: string | null
  droneTypes: string | null
  pilotLicenseNumber: string | null
  pilotLicenseUrl: string | null
}

export function PilotDashboard({
  profile,
  stats,
  welcome,
}: {
  profile: PilotProfile
  stats: { activeProjects: number; totalFlightHours: number; flightHoursThisMonth: number }
  welcome: string | null
}) {
  const tab = useActiveTab(PILOT_TABS, 'projects')
  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <WelcomeBanner message={welcome} />
      <DashboardHeading title="Pilot Dashboard" subtitle={`Welcome back, ${profile.firstName}. Here are your assigned survey flights.`} />
      <div className="grid gap-4 sm:grid-cols-2">
        <StatCard label="Assigned Projects" value={stats.activeProjects} hint="Active assignments" />
        <StatCard
          label="Flight Hours"
          value={`${stats.totalFlightHours} h`}
          hint={`${stats.flightHoursThisMonth} h this month`}
        />
      </div>
      <TabLinks tabs={PILOT_TABS} active={tab} label="Pilot dashboard sections" />
      {tab === 'projects' ? (
        <section className="card p-6" aria-labelledby="pilot-projects-heading">
          <h2 id="pilot-projects-heading" className="text-lg font-semibold">My Projects</h2>
          <p className="mt-3 text-sm text-ink-500">No projects assigned to you yet. New assignments arrive by e-mail with a job card.</p>
        </section>
      ) : null}
      {tab === 'flight-logs' ? (
        <section className="card p-6" aria-labelledby="pilot-logs-heading">
          <h2 id="pilot-logs-heading" className="text-lg font-semibold">Flight Logs</h2>
          <p className="mt-3 text-sm text-ink-500">Projects with uploaded media will be listed here.</p>
        </section>
      ) : null}
      {tab === 'profile' ? (
        <section className="card max-w-2xl p-6" aria-labelledby="pilot-profile-heading">
          <h2 id="pilot-profile-heading" className="text-lg font-semibold">Profile</h2>
          <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-ink-500">Name</dt>
              <dd className="font-medium">{profile.firstName} {profile.lastName}</dd>
            </div>
            <div>
              <dt className="text-ink-500">Email</dt>
              <dd className="font-medium">{profile.email}</dd>
            </div>
            <div>
              <dt className="text-ink-500">Pilot licence</dt>
              <dd className="font-mono font-medium">{pilotLicenceDisplay(profile.id)}</dd>
            </div>
            <div>
              <dt className="text-ink-500">Certification level</dt>
              <dd className="font-medium">{PILOT_CERTIFICATION_LEVEL}</dd>
            </div>
            <div>
              <dt className="text-ink-500">Licence number</dt>
              <dd className="font-medium">{profile.pilotLicenseNumber ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-ink-500">Service area</dt>
              <dd className="font-medium">{profile.serviceArea ?? '—'}</dd>
            </div>
            <div className="sm:col-span-2">
              <dt className="text-ink-500">Drone types</dt>
              <dd className="font-medium">{profile.droneTypes ?? '—'}</dd>
            </div>
          </dl>
        </section>
      ) : null}
    </main>
  )
}
