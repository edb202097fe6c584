"""Write the karate-club example: a real network's known split and three community detections.

Zachary's karate club (W. W. Zachary, "An information flow model for conflict and
fission in small groups", J. Anthropological Research 33:452-473, 1977): 34 members
of a university karate club that split into two clubs after a dispute between the
instructor ("Mr. Hi") and the officer ("Officer"). The network and the club each
member joined come from networkx's bundled copy (``networkx.karate_club_graph``).

Files written beside this script (regenerate with ``pip install networkx`` and
``python examples/karate/make_karate.py``; the outputs are committed so that the
quick start needs no networkx):

- ``factions.txt``   member<TAB>club joined after the split: the ground truth
- ``louvain.txt``    Louvain communities (seed 1), one community per line
- ``greedy.txt``     greedy modularity communities, one per line
- ``labelprop.txt``  asynchronous label propagation (seed 1), one per line
"""

from pathlib import Path

import networkx as nx

HERE = Path(__file__).resolve().parent
SEED = 1


def write_communities(path: Path, communities) -> None:
    lines = [" ".join(str(m) for m in sorted(c)) for c in communities]
    path.write_text("\n".join(sorted(lines, key=lambda s: int(s.split()[0]))) + "\n")


def main() -> None:
    graph = nx.karate_club_graph()
    clubs = "".join(f"{node}\t{graph.nodes[node]['club'].replace(' ', '_')}\n" for node in graph)
    (HERE / "factions.txt").write_text(clubs)
    community = nx.community
    write_communities(HERE / "louvain.txt", community.louvain_communities(graph, seed=SEED))
    write_communities(HERE / "greedy.txt", community.greedy_modularity_communities(graph))
    write_communities(
        HERE / "labelprop.txt", community.asyn_lpa_communities(graph, seed=SEED)
    )


if __name__ == "__main__":
    main()
