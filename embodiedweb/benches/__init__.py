"""The benches of ``ewa bench`` (:mod:`embodiedweb.bench` lists them): web drivers and memory, kitchen,
street and RL figures. Nothing of the library imports them."""
