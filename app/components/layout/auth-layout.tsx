import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'

import aerialHero from '../visuals/aerial-hero.svg'
import { Logo } from './logo.tsx'

/** The split screen of the account pages: marketing on the left, the form on the right. */
export function AuthLayout({ children, tagline }: { children: ReactNode; tagline?: ReactNode }) {
  return (
    <div className="grid min-h-screen lg:grid-cols-2">
      <aside className="relative hidden overflow-hidden bg-ink-950 lg:block">
        <img src={aerialHero} alt="" className="absolute inset-0 h-full w-full opacity-70 object-cover" />
        <div className="absolute inset-0 bg-gradient-to-t from-ink-950 via-ink-950/50 to-transparent" />
        <div className="relative flex h-full flex-col justify-between p-10 text-white">
          <Link to="/" aria-label="Kestrel Aerial Survey home" className="w-fit">
            <Logo light />
          </Link>
          <div>
            <p className="text-3xl font-black leading-tight tracking-tight xl:text-4xl">
              ELEVATE YOUR VIEW. <span className="text-amber-400">EMPOWER YOUR INSIGHT</span>
            </p>
            <p className="mt-3 max-w-md text-ink-200">
              {tagline ?? 'Professional drone mapping and aerial surveying services'}
            </p>
          </div>
        </div>
      </aside>
      <main className="flex items-center justify-center bg-ink-50 px-4 py-10 sm:px-6">
        <div className="w-full max-w-md">
          <Link to="/" aria-label="Kestrel Aerial Survey home" className="mb-8 inline-block lg:hidden">
            <Logo />
          </Link>
          {children}
        </div>
      </main>
    </div>
  )
}
