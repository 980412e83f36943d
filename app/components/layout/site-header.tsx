/**
 * The navigation bar (spec "Landing page"): logo to /, Home / About Us / Services to
 * their sections (from other pages: /#section), Login/Register for visitors and
 * Dashboard/Logout for signed-in users. Past 100 px of scroll it turns to glass.
 */
import { Form, Link, useLocation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { cn } from '../ui/cn.ts'
import { Logo } from './logo.tsx'

export const NAV_GLASS_THRESHOLD_PX = 100

const SECTIONS = [
  { id: 'home', label: 'Home' },
  { id: 'about', label: 'About Us' },
  { id: 'services', label: 'Services' },
] as const

export function SiteHeader({ signedIn, overlay = false }: { signedIn: boolean; overlay?: boolean }) {
  const location = useLocation()
  const onLanding = location.pathname === '/'
  const [scrolled, setScrolled] = useState(false)
  const [open, setOpen] = useState(false)

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > NAV_GLASS_THRESHOLD_PX)
    onScroll()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [])

  const glass = scrolled || !overlay
  const light = overlay && !glass

  function goToSection(event: React.MouseEvent<HTMLAnchorElement>, id: string) {
    setOpen(false)
    if (!onLanding) return // a normal link to /#id
    const target = document.getElementById(id)
    if (!target) return
    event.preventDefault()
    target.scrollIntoView({ behavior: 'smooth' })
    window.history.replaceState(null, '', `#${id}`)
  }

  const navLink = cn(
    'rounded-md px-3 py-2 text-sm font-medium transition',
    light ? 'text-white/90 hover:text-white' : 'text-ink-700 hover:text-ink-950',
  )

  return (
    <header
      data-glass={glass ? 'true' : 'false'}
      className={cn(
        'no-print fixed inset-x-0 top-0 z-[1000] transition-all duration-300',
        glass ? 'border-b border-white/40 bg-white/70 shadow-sm backdrop-blur-md' : 'bg-transparent',
      )}
    >
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6">
        <Link to="/" aria-label="Kestrel Aerial Survey home" className="rounded-md">
          <Logo light={light} />
        </Link>
        <button
          type="button"
          className={cn('rounded-md p-2 md:hidden', light ? 'text-white' : 'text-ink-800')}
          aria-expanded={open}
          aria-controls="main-menu"
          onClick={() => setOpen((v) => !v)}
        >
          <span className="sr-only">Menu</span>
          <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M4 7h16M4 12h16M4 17h16" />
          </svg>
        </button>
        <div
          id="main-menu"
          className={cn(
            'absolute inset-x-0 top-16 flex-col gap-1 border-b border-ink-100 bg-white p-4 shadow-lg md:static md:flex md:flex-row md:items-center md:gap-1 md:border-0 md:bg-transparent md:p-0 md:shadow-none',
            open ? 'flex' : 'hidden',
          )}
        >
          {SECTIONS.map((s) => (
            <a
              key={s.id}
              href={`/#${s.id}`}
              onClick={(e) => goToSection(e, s.id)}
              className={cn(navLink, open && 'text-ink-800')}
            >
              {s.label}
            </a>
          ))}
          <span className="mx-2 hidden h-6 w-px bg-ink-200/60 md:block" aria-hidden="true" />
          {signedIn ? (
            <>
              <Link to="/dashboard" className={cn(navLink, open && 'text-ink-800')}>
                Dashboard
              </Link>
              <Form method="post" action="/logout">
                <button type="submit" className={cn('btn-secondary btn-sm w-full md:w-auto', 'ml-0 md:ml-2')}>
                  Logout
                </button>
              </Form>
            </>
          ) : (
            <>
              <Link to="/login" className={cn(navLink, open && 'text-ink-800')}>
                Login
              </Link>
              <Link to="/register" className="btn-primary btn-sm md:ml-2">
                Register
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  )
}
