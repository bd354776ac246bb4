"""team_tenacity - a team's tenacity loop: full jitter from 0.5 s up to 8 s,
5 attempts, retrying any exception (tenacity's default)."""
import tenacity


def retrying():
    return tenacity.Retrying(wait=tenacity.wait_random_exponential(multiplier=0.5, max=8),
                             stop=tenacity.stop_after_attempt(5))
