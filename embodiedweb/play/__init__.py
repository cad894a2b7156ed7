"""Human-play mode: people play the same envs in their browser; every step goes through the env."""
