"""Topical texts shared by the topic balancer and frontier middleware tests (written for these tests)."""

from __future__ import annotations

import random

COOKING = [
    "Knead the bread dough for ten minutes until it turns smooth and elastic under your palms.",
    "Sourdough starter needs flour and water every day to keep its wild yeast lively and sour.",
    "Simmer the tomato sauce slowly with garlic, basil and a splash of olive oil.",
    "Preheat the oven, grease the baking tin and whisk the eggs with sugar until pale.",
    "A sharp chef's knife makes chopping onions, carrots and celery quicker and safer.",
    "Season the roast chicken with salt, pepper, lemon zest and fresh thyme before roasting.",
    "Let the pastry rest in the fridge so the butter firms up and the crust stays flaky.",
    "Stir the risotto rice with warm stock, one ladle at a time, until creamy and tender.",
    "Caramelise the onions over low heat; patience turns them sweet, soft and golden brown.",
    "Fold the whipped cream gently into the chocolate so the mousse stays light and airy.",
    "Blanch the green beans in salted boiling water, then plunge them into iced water.",
    "Marinate the lamb overnight in yoghurt, cumin, coriander and crushed garlic cloves.",
]
ASTRONOMY = [
    "The telescope revealed the rings of Saturn and four of Jupiter's bright moons.",
    "A light year measures the distance that light travels through space in one year.",
    "Neutron stars form when massive stars collapse after a supernova explosion.",
    "The Andromeda galaxy is approaching the Milky Way and the two will merge in billions of years.",
    "Astronomers measure stellar spectra to learn a star's temperature, composition and velocity.",
    "A total solar eclipse happens when the Moon passes exactly between the Sun and Earth.",
    "Comets grow glowing tails of gas and dust as their orbits bring them close to the Sun.",
    "Dark matter does not emit light, yet its gravity shapes the rotation of galaxies.",
    "The orbit of Mars is elliptical, so its distance from the Sun changes through its year.",
    "Exoplanets are detected when they dim their host star during a transit across its disc.",
    "Observatories on high mountains escape the turbulence and glow of the lower atmosphere.",
    "The cosmic microwave background is the faint afterglow of the early hot universe.",
]
FRENCH = [
    "Le marché du samedi réunit les producteurs de la vallée sur la place de l'église.",
    "Les habitants du quartier se retrouvent au lavoir pour discuter des nouvelles du village.",
    "La bibliothèque municipale propose des ateliers de lecture pour les enfants chaque mercredi.",
    "Le conseil municipal a voté la rénovation du pont qui traverse la rivière depuis deux siècles.",
    "Les randonneurs suivent le sentier balisé jusqu'au sommet de la colline au lever du soleil.",
    "La fête du village attire chaque été des musiciens venus de toute la région.",
]


def topical_docs(sentences: list[str], n: int, seed: int) -> list[str]:
    """``n`` different texts of 6 sentences each drawn from ``sentences`` (deterministic)."""
    rng = random.Random(seed)
    return [" ".join(rng.sample(sentences, 6)) for _ in range(n)]
