#!/usr/bin/env python3
"""Census of Event/Site names in the PGN Mentor "players" collection and the
labelled list tests/data/event-series-format.tsv.

The labels (play, time_class, evidence, source) are curated by hand in ROWS
below; this script only *measures* them against the collection (examples,
game counts, year ranges), checks that every pattern matches its examples,
that every series key with >= 500 games is covered, and reports coverage.

Usage (python3 only, no third-party packages needed; uses the `zstd` binary
or the `zstandard` module if installed):

    python3 scripts/event_series_census.py --census 200      # print series census
    python3 scripts/event_series_census.py --write           # (re)write the TSV
    python3 scripts/event_series_census.py --check           # verify the TSV

Counting: a game is identified by (White, Black, Date, Round, Event, Result);
the ~84.6k games that appear in two players' files are counted once
("distinct games").  All numbers in the TSV are distinct-game counts.
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'data', 'pgnmentor-players')
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'data',
                   'event-series-format.tsv')

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def read_text(path):
    try:
        import zstandard  # type: ignore
        with open(path, 'rb') as fh:
            return zstandard.ZstdDecompressor().stream_reader(fh).read().decode('utf-8', 'replace')
    except ImportError:
        out = subprocess.run(['zstd', '-dc', path], capture_output=True, check=True).stdout
        return out.decode('utf-8', 'replace')


def load_games(data_dir=DATA):
    """Return list of dicts (distinct games), plus the raw count."""
    seen = set()
    games = []
    raw = 0
    for path in sorted(glob.glob(os.path.join(data_dir, '*.pgn.zst'))):
        cur = {}
        for line in read_text(path).splitlines():
            if not line.startswith('['):
                continue
            m = TAG.match(line.strip())
            if not m:
                continue
            if m.group(1) == 'Event' and cur:
                raw += 1
                key = (cur.get('White'), cur.get('Black'), cur.get('Date'),
                       cur.get('Round'), cur.get('Event'), cur.get('Result'))
                if key not in seen:
                    seen.add(key)
                    games.append(cur)
                cur = {}
            cur[m.group(1)] = m.group(2)
        if cur:
            raw += 1
            key = (cur.get('White'), cur.get('Black'), cur.get('Date'),
                   cur.get('Round'), cur.get('Event'), cur.get('Result'))
            if key not in seen:
                seen.add(key)
                games.append(cur)
    return games, raw


# ---------------------------------------------------------------- series key
MONTHS = (r'jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|'
          r'sep|sept|september|oct|october|nov|november|dec|december')
DROP = set('''early late ko prelim prelims final finals semifinal semi sf qf quarterfinal
play-in playin playoff playoffs play-off tb t/b tiebreak tie-break tiebreaks stage group gp
gpa gpb gpc gpd swiss sw round rd day week wk match qual quali qualifier qualification
qualfier div division w l win lose winners losers men women men's women's a b c d e am pm
the of edition'''.split())


def series_key(event):
    """Normalised series key: strips years/seasons, ordinals, roman edition
    numbers, month names, clock times, round/stage/section words."""
    s = event.lower().replace('tuesday', 'tue')
    s = re.sub(r'\((men|women|open)\)', ' ', s)
    s = re.sub(r'\b(18|19|20)\d\d(-\d{1,4})?\b', ' ', s)   # years, 2006-7 seasons
    s = re.sub(r'\b\d{4}\b', ' ', s)                       # 9899-style seasons
    s = re.sub(r'\b\d+(st|nd|rd|th)\b', ' ', s)            # 4th, 36th
    s = re.sub(r'\b\d+(am|pm)\b', ' ', s)                  # 10am
    s = re.sub(r'\b(%s)\b\.?' % MONTHS, ' ', s)
    if re.match(r'^\s*[ivxl]+\s', s):                      # XXIV SuperGM
        s = re.sub(r'^\s*[ivxl]+\s', ' ', s)
    s = re.sub(r'\b\d+\b', ' ', s)
    toks = [t for t in re.split(r'[\s,]+', s) if t]
    toks = [t for t in toks if t not in DROP and
            not re.fullmatch(r'(q|gp|div|wk|r|d)\d+[a-z]?|qual[a-z]|[a-h]\d?|m\d|sw\d*', t)]
    return ' '.join(toks) or event.lower().strip()


def year_of(g):
    y = g.get('Date', '')[:4]
    return int(y) if y.isdigit() else None


# ---------------------------------------------------------------- sources
S = dict(
    FIDE_TC='https://old.fide.com/component/content/article/1-fide-news/8709-time-controls-for-fide-world-events.html',
    FIDE_CLASSES='https://www.chess.com/forum/view/general/what-are-the-fide-time-controls?lc=1',
    WBLITZ='https://chess24.com/en/embed-tournament/world-blitz-championship-2018/13/1/1',
    WRAPID='https://chesschest.com/dubov-is-back',
    TT='https://www.chess.com/article/view/titled-tuesday-what-you-need-to-know',
    TA='https://mskchess.ru/blog/YHx-ihAAACMAcXQs/i-used-to-win-these-tournaments-without-too-much-sweat-not-anymore',
    PRO='https://opera.sportskeeda.com/chess/pro-chess-league-is-back-in-january-2019',
    PRO23='https://prochessleague.com',
    SCC17='https://www.chess.com/article/view/speed-chess-championship-official-rules',
    SCC='https://jobbiecrew.com/speed-chess-championship/',
    JSCC='https://www.chesstraining.org/index.php/2020/09/07/junior-speed-chess-championship-begins-this-week-chess-com/',
    WSCC='https://chesswords.blogspot.com/2020/06/fide-and-chesscom-announce-womens-speed.html',
    SUPERSWISS='https://backbenchers.org/october-3-4-speed-chess-championship-super-swiss/',
    BCC='https://reddit.targetnode.de/r/chess/comments/1dcobqm/event_chesscom_bullet_chess_championship_2024/l8h0d26',
    BULLETOPEN='https://www.chess.com/news/view/2020-chess-com-bullet-open-championship-december',
    CCT23='https://dnhewrhegkli.shop/wiki/Champions_Chess_Tour_2023',
    CCT21='https://forum.chesstalk.com/forum/chesstalk-canada-s-chess-discussion-board-go-to-www-strategygames-ca-for-your-chess-needs/210030-champions-chess-tour-2021',
    CCTF23='https://www.chess.com/news/view/magnus-and-hikaru-final-battle-champions-chess-tour-finals-2023',
    MELT22='https://kursuscatur.com/2022/11/15/carlsen-beats-so-as-champions-chess-tour-finals-take-off-in-san-francisco/',
    RCC='https://www.chess.com/de/article/view/chess-com-schnellschach-meisterschaft-2022-alle-informationen',
    CGC='https://www.chessdom.com/chess-com-global-chess-championship-group-e-nepos-group/',
    BANTER='https://qualitysportsnews.com/carlsen-through-eljanov-out-banter-blitz-cup/',
    BANTERS='https://chess24.com/en/read/news/carlsen-co-in-banter-series-finals-action',
    OLYONLINE='https://olymp.fide.com/about',
    NATIONS='https://blog.chessbomb.com/2020/05/fide-chesscom-online-nations-cup-2020.html',
    MCI='https://chess24.com/en/embed-custom-tournament/condensed/magnus-carlsen-invitational-2020/3/1/1',
    LINDORES20='https://theweekinchess.com/chessnews/events/lindores-abbey-rapid-challenge-2020',
    LINDORESBLITZ='https://fide.com/2021/11/08',
    LEGENDS='https://en.chessbase.com/post/legends-of-chess-2020-live',
    FTX22='https://www.chess.com/news/view/ftx-crypto-cup-2022-round-1',
    CLUTCH='https://fr.chessbase.com/post/clutch-chess-international-direct',
    KATARA='https://lichess.org/blog/X0gT_xAAACMAScjY/magnus-wins-katara-international-bullet-tournament-final',
    TATAIND='https://en.chessbase.com/post/tata-steel-rapid-blitz-live',
    TATAIND24='https://sportstar.thehindu.com/chess/tata-steel-chess-india-2024-all-you-need-to-know-date-time-venue-player-list-schedule-prize-money/article68859936.ece',
    GCTPARIS='https://schachclub-ober-ramstadt.blogspot.com/2017/06/gct-schnellschach-in-paris.html',
    GCTPARIS19='https://de.chessbase.com/post/grand-chess-tour-paris-live',
    AMBER='https://en.chessbase.com/post/amber-2009-aronian-takes-the-lead-anand-and-kramnik-follow',
    AMBER04='https://en.chessbase.com/post/blindfold-and-rapid-in-monaco',
    NORWAYARM='https://chess24.com/en/embed-tournament/altibox-norway-chess-2020/1/1/1',
    NORWAY19='https://www.business-standard.com/article/sports/chess-1355-119060701419_1.html',
    STL20='https://chess24.com/en/embed-tournament/saint-louis-rapid-and-blitz-2020/3/1/1',
    USCH20='https://uschesschamps.com:443/2020-us-championships/regulations',
    DANZHOU20='https://chess24.com/en/read/news/ding-leads-in-danzhou-as-hou-yifan-triumphs',
    GSWISS19='https://chess24.com/en/embed-custom-tournament/condensed/fide-grand-swiss-2019/7/1/2',
    IOM='https://iominternationalchess.com/news-media/news/232-2019-preview.html',
    GAUSDAL='https://docslib.org/doc/11269070/gausdal-norway-gausdal-classics-2001-2008-gm-im-group-two',
    PHILINT='http://ajedrezpr.blogspot.com/2010/06/source-httpgambit.html',
    WMG='http://www.chessvibes.com/?q=reports/world-mind-games-take-off-in-beijing',
    WMG13='https://en.chessbase.com/post/world-mind-games-begin-today',
    ARMCS='https://worldchess.com/news/all/armageddon-championship-finale-to-start-in-berlin/',
    ARMCS_OTB='https://www.schachbund.de/news/armageddon-championship-series-mit-over-the-board-finale-in-berlin.html',
    GCL='https://sportstar.thehindu.com/chess/global-chess-league-schedule-teams-scoring-system-players-dubai-sports-council-all-you-need-to-know/article66976225.ece',
    ICCOPEN='http://susanpolgar.blogspot.com/2014/07/icc-open.html',
    DOSH='https://www.chess.com/news/view/dos-hermanas-heading-for-the-finals',
    LEON='http://advancedchessleon.com/bases.html',
    CAPDAGDE='http://chessbase.com/Home/TabId/211/PostId/4011675/karpov-crushing-cap-dagde-301013.aspx',
    CARLSEN_INT='https://chessforallages.blogspot.com/2021/09/carlsens-banter-blitz-events-2019-21.html',
)

# Textual (non-URL) sources
T_NAME = 'event name contains the time class'
T_TWIC_INT = 'TWIC/PGN Mentor Site tag "<server> INT" = game played on that internet server'
T_CITY = 'Site tag is a city (physical venue); historical/TWIC-era classical event'
T_FIDE_LAWS = 'FIDE Laws of Chess: blitz <= 10 min per player, rapid > 10 and < 60 min, standard >= 60 min (base + 60 x increment)'

# ---------------------------------------------------------------- rows
# kind, pattern (Python re, searched case-insensitively in Event or Site),
# play, time_class, evidence, source
NOT_TB = r'(?!.*\b(TB|T/B|Tie-?Break|Playoffs?|Play-off|Armageddon)\b)'
# An optional 7th element: a regex on the Round tag, for rows of some games of
# a series only ("N.1"/"N.2": a knock-out match's classical games; "N.3" and
# later: its tie-breaks). The TSV's "rounds" column gives the commonest Round
# values of such a row (empty: games of any round).
R_GAMES_12 = r'^\d+\.[12]$'
R_GAMES_3UP = r'^\d+\.([3-9]|[1-9]\d+)$'

ROWS = [
    # ---------------- chess.com / lichess / chess24 online series
    ('event', r'^Titled Tue(sday)?\b', 'online', 'blitz',
     'chess.com Titled Tuesday: weekly online Swiss for titled players, 3+1 since Mar 2020 (3+2 before); NOT classical despite long names ("Titled Tue 4th Jan Early")', S['TT']),
    ('event', r'^Titled Arena\b', 'online', 'bullet',
     'lichess Titled Arena (site lichess.org INT); the Apr 3rd 2021 edition is the "April 2021 Bullet Titled Arena" (1+0); Jan/Mar/May 2021 editions assumed 1+0 too ?', S['TA']),
    ('event', r'^PRO League\b', 'online', 'rapid',
     'Professional Rapid Online (PRO) Chess League on chess.com: 15+2 (2017-19), 10+2 (2020, 2023); 27 KO-2018 games have Site San Francisco USA (live final, still played on chess.com ?)', S['PRO']),
    ('event', r'^chess\.com Speed(Chess)? (19|20)\d\d$', 'online', 'mixed',
     'Speed Chess Championship main event: every match = 90 min of 5+1, 60 min of 3+1 (blitz) and 30 min of 1+1 (bullet) under one Event name; genuinely mixed blitz/bullet', S['SCC']),
    ('event', r'^chess\.com Speed 1m\+1spm', 'online', 'bullet',
     'SCC 2017-18 segment file: 1 min + 1 s/move bullet segment', S['SCC17']),
    ('event', r'^chess\.com Speed [35]m\+[12]spm', 'online', 'blitz',
     'SCC 2017-18 segment files: 5+2/5+1/3+2/3+1 blitz segments', S['SCC17']),
    ('event', r'^chess\.com Junior Speed', 'online', 'mixed',
     'Junior Speed Chess Championship: SCC format, 90 min 5+1 + 60 min 3+1 blitz + 30 min 1+1 bullet per match', S['JSCC']),
    ('event', r"^(chess\.com )?Women's Speed", 'online', 'mixed',
     "FIDE/chess.com Women's Speed Chess Championship: GP/Main matches in 5+1/3+1 blitz + 1+1 bullet segments; qualifiers Q1..Q8 are single-TC Swisses (5+1, 3+1 or 1+1)", S['WSCC']),
    ('event', r'^Speed Chess GP\d', 'online', 'mixed',
     'Speed Chess Championship Grand Prix 2021 (4 weekly legs): blitz Swiss (TC not stated ?) then 8-player SCC-style knockout with 5+1/3+1 blitz and 1+1 bullet', 'https://www.chess.com/news/view/scc-grand-prix-1-drozdowski'),
    ('event', r'^Speed Chess Super Swiss', 'online', 'blitz',
     'SCC Super Swiss 2020: 15-round Swiss at 3+0', S['SUPERSWISS']),
    ('event', r'^Speed Super Swiss KO', 'online', 'mixed',
     'SCC Super Swiss knockout day: matches of 5+1, 3+1 (blitz) and 1+1 (bullet) games', S['SUPERSWISS']),
    ('event', r'^Bullet Chess (Winners|Losers)', 'online', 'bullet',
     'chess.com Bullet Chess Championship 2023/2024: double-elimination matches of 1+0 games', S['BCC']),
    ('event', r'^Chess\.com (Bullet Open|SIG Bullet)', 'online', 'bullet',
     'chess.com Bullet Open / Bullet Championship qualifiers: all games 1+0', S['BULLETOPEN']),
    ('event', r'^Chess\.com (RCC|Rapid) W', 'online', 'rapid',
     'Chess.com Rapid Chess Championship 2022 weekly Swiss/KO events (rapid series on chess.com)', S['RCC']),
    ('event', r'^CGC\b', 'online', 'rapid',
     'Chess.com Global Championship 2022 knockout: 15+2 rapid matches; finals also played over computers', S['CGC']),
    ('event', r'^(Chessable (Masters|Play-In|Qualifier))', 'online', 'rapid',
     'Champions Chess Tour leg (chess24 2020-22: 15+10; chess.com 2023-24: Play-In 10+2, KO 15+3); KO tie-breaks (blitz/armageddon) share the Event name', S['CCT23']),
    ('event', r'^Airthings (Masters|Play-In)', 'online', 'rapid',
     'Champions Chess Tour leg, online (15+10 in 2020-22, 10+2/15+3 in 2023); a few blitz/armageddon tie-breaks inside', S['CCT21']),
    ('event', r'^Julius Baer', 'online', 'rapid',
     'Julius Baer Generation Cup (CCT 2022 on chess24, CCT 2023 on chess.com): rapid, tie-breaks inside', S['CCT23']),
    ('event', r'^Aimchess', 'online', 'rapid',
     'Aimchess US Rapid / Aimchess Rapid: Champions Chess Tour legs, online rapid', S['CCT23']),
    ('event', r'^(ChessKid Cup|AI Cup|Chess\.com Classic)', 'online', 'rapid',
     'Champions Chess Tour 2023/2024 legs on chess.com: Play-In 10+2, knockout 15+3', S['CCT23']),
    ('event', r'^(Skilling Open|Opera Euro Rapid|NIC Classic|Goldmoney Asian|Charity Cup|FTX Road to Miami|FTX Crypto Cup (Prelim|KO 2021)|New in Chess Classic)', 'online', 'rapid',
     'Meltwater Champions Chess Tour 2020-22 regular events on chess24: 15+10 rapid (blitz 5+3/armageddon tie-breaks inside KO)', S['CCT21']),
    ('event', r'^Meltwater Tour Final', 'online', 'rapid',
     'Meltwater CCT Finals 2021/2022: 15+10 rapid; 2022 edition hybrid (half in San Francisco, half at home, all on computers)', S['MELT22']),
    ('event', r'^(Magnus )?Carlsen (Inv|Tour Final)', 'online', 'rapid',
     'Magnus Carlsen Invitational 2020/2021 and Carlsen Tour Final 2020 on chess24: 15+10 rapid (blitz/armageddon tie-breaks)', S['MCI']),
    ('event', r'^Lindores Abbey (Prelim|Final 8)', 'online', 'rapid',
     'Lindores Abbey Rapid Challenge 2020 (Magnus Carlsen Tour) on chess24: 15+10', S['LINDORES20']),
    ('event', r'^Legends of Chess', 'online', 'rapid',
     'chess24 Legends of Chess 2020: four-game 15+10 rapid matches', S['LEGENDS']),
    ('event', r'^Oslo Esports Cup', 'online', 'rapid',
     'Oslo Esports Cup 2022 (CCT Major): all 8 players in the chess24 studio in Oslo (Site says Oslo NOR) but the games were still played over the net; four-game rapid matches', 'https://bergensjakk.no/2022/04/22/oslo-esports-cup-starter'),
    ('event', r'^FTX Crypto Cup 2022$', 'online', 'rapid',
     'FTX Crypto Cup 2022: players in one room in Miami but on laptops on the chess24 Playzone (Site says Miami USA); 15+10 rapid', S['FTX22']),
    ('event', r'^CCT Final', 'over-the-board', 'rapid',
     'Champions Chess Tour Finals 2023 Toronto: first CCT final fully in person and over the board; rapid (15+3)', S['CCTF23']),
    ('event', r'^Chess24 Banter', 'online', 'blitz',
     'chess24 Banter Blitz Cup (3+0) and Banter Series 2020 (3+2) played in the chess24 Playzone', S['BANTER']),
    ('event', r'^Online Olym', 'online', 'rapid',
     'FIDE Online Olympiad 2020/2021 on chess.com: 15+5', S['OLYONLINE']),
    ('event', r'^Online Nations Cup', 'online', 'rapid',
     'FIDE Chess.com Online Nations Cup 2020: 25+10', S['NATIONS']),
    ('event', r'^Clutch (Chess Showdown Int|Champions Showdown)', 'online', 'rapid',
     'Clutch Chess 2020 on lichess: 12-game matches at 10+5 ("Int" = International, not internet)', S['CLUTCH']),
    ('event', r'^Katara Bullet', 'online', 'bullet',
     'Katara International Bullet 2020/2021 on lichess: 1+0 knockout', S['KATARA']),
    ('event', r'^(Carlsen-Tang|Magnus-Alireza) Bullet', 'online', 'bullet',
     'lichess bullet exhibition matches (name says Bullet)', T_NAME),
    ('event', r'^Saint Louis (Rapid|Blitz) 2020$', 'online', 'mixed',
     'Saint Louis Rapid & Blitz 2020 was played online (Site lichess.org INT): rapid 25+5 under "Rapid", blitz 5+3 under "Blitz"', S['STL20']),
    ('event', r'^ch-USA (Women |Senior )?2020$', 'online', 'rapid',
     '2020 U.S. Championships held online (lichess) as rapid round robins, G/25+5', S['USCH20']),
    ('event', r'^1[12]th Hainan Danzhou GM', 'online', 'rapid',
     'Danzhou 2020 switched from classical OTB to online rapid 15+10 (chess.com); 2021 edition on lichess assumed same ?', S['DANZHOU20']),
    ('event', r'^3(3rd|4th) Leon GM', 'online', 'rapid',
     'Leon Masters 2020/2021 played online (Site chess.com INT); Leon is a rapid KO event', S['LEON']),
    ('event', r'^3(3rd|4th) Leon Blitz', 'online', 'blitz',
     'Leon Blitz Open 2020/2021 on chess.com (name says Blitz)', T_NAME),
    ('event', r'^PNWCC (Online Blitz|Blitz Championship|Opening Bl)', 'online', 'blitz',
     'Pacific Northwest Chess Center online blitz events on lichess/chess.com (name says Blitz)', T_NAME),
    ('event', r'^PNWCC Bullet', 'online', 'bullet', 'PNWCC Bullet (1+1): name gives 1+1', T_NAME),
    ('event', r'^(USCL|US Chess League)\b(?!.*(T/B|\bTB\b|Tiebreaker))', 'online', 'classical',
     'US Chess League (2005-2015) weekly team matches played on ICC (Site ICC INT) at a long, US-Chess-rated "regular" time control (>= 60 min base, believed G/75+30 early on); exact TC per season not verified ? (blitz T/B games excluded)', 'http://the-uncensored-wiki.com:20121/2012-wikipedia_en_all_nopic_01_2012/A/United%20States%20Chess%20League.html'),
    ('event', r'Dos Hermanas Internet', 'online', 'blitz',
     'Dos Hermanas internet tournament on ICC: blitz qualifier Swisses + knockout final; exact TC not verified ?', S['DOSH']),
    ('event', r'^(\d+(st|nd|rd|th) )?ICC Open', 'online', 'blitz', 'ICC Open: 3+0 qualifiers and knockout', S['ICCOPEN']),
    ('event', r'ACP (Women )?Blitz', 'online', 'blitz',
     'ACP Blitz 2004 played on playchess.com (Site playchess.com INT); name says Blitz', T_TWIC_INT),
    ('event', r'^Russian Blitz Internet Cup', 'online', 'blitz',
     'Russian Blitz Internet Cup superfinal 2004, Site chessassistantclub.com INT', T_TWIC_INT),
    ('event', r'^(Euro Online Blitz|ch-Europe Internet Blitz|Cappelle Online Blitz|Gran Canaria Online Blitz|Oz\.com qualifier blitz)', 'online', 'blitz',
     'online blitz events (Tornelo/Europe-Echecs/playchess INT sites; name says Online/Internet Blitz)', T_NAME),
    # ---------------- fast OTB championships
    ('event', r'^(FIDE |VI )?World Blitz\b|^WCh w Blitz', 'over-the-board', 'blitz',
     'FIDE World Blitz Championship (3+2 since 2012; Rishon 2006/Moscow 2007-10 events also blitz)', S['WBLITZ']),
    ('event', r'^(FIDE )?World Rapid(?! Team)' + r'(?!.*\bTB\b)', 'over-the-board', 'rapid',
     'FIDE World Rapid Championship: 15+10 Swiss', S['WRAPID']),
    ('event', r'^World Rapid Team', 'over-the-board', 'rapid', 'FIDE World Rapid Team Championship 2023 Dusseldorf (name says Rapid)', T_NAME),
    ('event', r'^(\d+(st|nd|rd|th) )?European (Women )?Blitz|^ch-Euro(pean)? Blitz|^Eu Blitz Ch|^Amplico ch-EUR Blitz', 'over-the-board', 'blitz',
     'European Individual Blitz Championship (name says Blitz)', T_NAME),
    ('event', r'^(European Rapid|ch-European Rapid|Amplico ch-EUR Rapid)(?!.*Playoff)', 'over-the-board', 'rapid',
     'European Individual Rapid Championship (name says Rapid)', T_NAME),
    ('event', r'^(ch-RUS|TCh-RUS) (Blitz|Rapid)', 'over-the-board', 'mixed',
     'Russian individual/team Rapid and Blitz championships (Sochi etc.): Event name gives the class (Rapid -> rapid, Blitz -> blitz)', T_NAME),
    ('event', r'Moscow Blitz|^Crocus City Stars Blitz|^Piterenka Blitz', 'over-the-board', 'blitz', 'Moscow/Russian OTB blitz events (name says Blitz)', T_NAME),
    ('event', r'^(\d+(st|nd|rd|th) )?Tal Mem(orial)? Blitz', 'over-the-board', 'blitz',
     'Tal Memorial blitz side event (Moscow/Sochi/Riga), name says Blitz', T_NAME),
    ('event', r'^(\d+(st|nd|rd|th) )?Tal Mem(orial)? Rapid|^Mikhail Tal Mem Rapid', 'over-the-board', 'rapid', 'Tal Memorial rapid side event (name says Rapid)', T_NAME),
    ('event', r'^Lindores Abbey Tal Mem', 'over-the-board', 'blitz',
     'Lindores Abbey Blitz in honour of Tal, Riga 8 Nov 2021: over-the-board blitz, 9 double rounds', S['LINDORESBLITZ']),
    ('event', r'Gashimov Mem Blitz', 'over-the-board', 'blitz', 'Gashimov Memorial blitz (Baku), name says Blitz', T_NAME),
    ('event', r'^(\d+(st|nd|rd|th) )?(SportAccord|Sportaccord WMG|IMSA|WMSG) .*(Blitz|Rapid|Blindfold|Basque)', 'over-the-board', 'mixed',
     'SportAccord World Mind Games / IMSA Elite Mind Games (Beijing, Huai\'an): Rapid 20+10, Blitz 3+2, Blindfold 20+20 (rapid), Basque = two rapid games at once; Event name gives the discipline', S['WMG']),
    ('event', r'^Eurasian Blitz', 'over-the-board', 'blitz', 'Eurasian Blitz Chess Cup, Almaty 2016 (name says Blitz)', T_NAME),
    ('event', r'^(GCT (Blitz|Rapid)|Superbet (POL )?(Blitz|Rapid)|SuperUnited (Blitz|Rapid)|Your Next Move Blitz)(?!.*\bTB\b)', 'over-the-board', 'mixed',
     'Grand Chess Tour rapid & blitz legs (Paris, Leuven "YourNextMove", Croatia, Superbet Poland/Romania): rapid 25+10 under "Rapid", blitz 5+3/5+2 under "Blitz"', S['GCTPARIS']),
    ('event', r'^Saint Louis (Rapid|Blitz) (?!2020)', 'over-the-board', 'mixed',
     'Saint Louis Rapid & Blitz (GCT) in Saint Louis: rapid 25+10 under "Rapid", blitz 5+3 under "Blitz" (2020 edition online, see separate row)', S['GCTPARIS19']),
    ('event', r'^Tata Steel (India|IND) (Blitz|Rapid)', 'over-the-board', 'mixed',
     'Tata Steel Chess India, Kolkata: rapid 25+10 under "Rapid", blitz (5+2 / 3+2) under "Blitz"', S['TATAIND']),
    ('event', r'(^|\d(st|nd|rd|th) )Norway (Supreme Masters )?Blitz', 'over-the-board', 'blitz',
     'Norway Chess opening blitz (draw for pairing numbers), Stavanger; name says Blitz', T_NAME),
    ('event', r'Norway Armageddon', 'over-the-board', 'blitz',
     'Norway Chess armageddon after a drawn classical game: White 10 min, Black 7 min (+1 s from move 41/61) = blitz under FIDE limits; not classical', S['NORWAYARM']),
    ('event', r'^Armageddon (Asia|Americas|Euro|Women|Grand)', 'over-the-board', 'blitz',
     'World Chess Armageddon Championship Series 2023, Berlin studio: 3+2 blitz games + 5/4 armageddon', S['ARMCS']),
    ('event', r'^Armageddon: Chess for TV', 'over-the-board', 'blitz',
     'Armageddon TV show, Moscow 2019: blitz/armageddon games ?', T_NAME),
    ('event', r'^Champions Showdown (Blitz|G5)|^Showdown Blitz|^Carlsen-Ding Showdown G5', 'over-the-board', 'blitz',
     'Saint Louis Champions Showdown blitz / G/5 segments (name says Blitz or G5)', T_NAME),
    ('event', r'^Champions Showdown (Rapid|G10|G20|G30|60m)|^Showdown Rapid|^Carlsen-Ding Showdown G(10|20|30)', 'over-the-board', 'rapid',
     'Saint Louis Champions Showdown rapid segments (G/10 to G/60 per name); G10+inc counts as rapid ?', T_NAME),
    ('event', r'Keres Mem(orial)? Rapid', 'over-the-board', 'rapid', 'Keres Memorial rapid, Tallinn (name says Rapid)', T_NAME),
    ('event', r'Puhajarve Rapid', 'over-the-board', 'rapid', 'Puhajarve rapid tournament, Estonia (name says Rapid)', T_NAME),
    ('event', r'^Oviedo rapid', 'over-the-board', 'rapid', 'Oviedo rapid (rapid45 = 45 min), name says rapid', T_NAME),
    ('event', r'^Tilburg rapid', 'over-the-board', 'rapid', 'Tilburg rapid20 (20 min), name says rapid', T_NAME),
    ('event', r'^Nutcracker Rapid', 'over-the-board', 'rapid', 'Nutcracker rapid (Moscow), name says Rapid', T_NAME),
    ('event', r'ACP World Rapid Cup', 'over-the-board', 'rapid', 'ACP World Rapid Cup, Odessa (name says Rapid)', T_NAME),
    ('event', r'^St\.Petersburg Rapid|^(\d+(st|nd|rd|th) )?Czech Rapid|^ch-CHN Rapid', 'over-the-board', 'rapid', 'national/regional rapid championships (name says Rapid)', T_NAME),
    ('event', r'^((\d+(st|nd|rd|th)|[IVXL]+) )?Rapid( Match| KO| Open)?$|^Match Rapid$|^KO Rapid$', 'over-the-board', 'rapid',
     'generic TWIC-era names "Rapid", "II Rapid", "Rapid Match", "XXIII Rapid Open" (city in Site); name says Rapid', T_NAME),
    ('event', r'^Amber[ -]?(Rapid|blind)|^\d+(st|nd|rd|th) Amber (Rapid|Blindfold)', 'over-the-board', 'rapid',
     'Melody Amber (Monaco/Nice): every round one rapid and one blindfold game, both at rapid rates (25 min +10 s rapid, +20 s blindfold); blindfold games are played in the hall on empty-board screens, not online', S['AMBER']),
    ('event', r'^Global Chess League', 'over-the-board', 'rapid',
     'Global Chess League 2023, Le Meridien Dubai: six-board team matches at 15+10 rapid (final had blitz tie-break games)', S['GCL']),
    ('event', r'^(2[6-9]|3[0-25-9])(st|nd|rd|th) Leon GM', 'over-the-board', 'rapid',
     'Leon Masters (Magistral de Leon) KO: 4-game matches at 20+10 rapid, in Leon (2020/21 online editions excluded by separate row)', S['LEON']),
    ('event', r'^Candidates Blitz|^London CC Superblitz|^\d+(st|nd|rd|th) London CC Elite Blitz|^Hoogovens (Blitz|5\')', 'over-the-board', 'blitz',
     'blitz side events of classical tournaments (Hoogovens 5\' = five-minute games); name says Blitz/5\'', T_NAME),
    ('event', r'^London Classic Superrapid|Super Rapidplay|LCC English Rapid(?!.*\bTB\b)', 'over-the-board', 'rapid', 'London Chess Classic rapid side events (name says rapid)', T_NAME),
    # ---------------- KO events with tie-breaks inside the Event name
    ('event', r'^FIDE World Cup\b|^WCC$', 'over-the-board', 'mixed',
     'FIDE World Cup KO (2011-2023; "WCC" = World Cup 2005 Khanty-Mansiysk; 2000/2002 group+KO): 2 classical games per round (90/40+30) plus rapid/blitz/armageddon tie-breaks under the same name (sub-round .3 and higher, ~45% of games)', S['FIDE_TC']),
    ('event', r'^World Cup$', 'over-the-board', 'mixed',
     '"World Cup" = 1988-89 GMA World Cup and 1991 (classical round robins) + 2007/2009 FIDE World Cup KO (Khanty-Mansiysk) with rapid/blitz tie-breaks inside (rounds x.3+)', S['FIDE_TC']),
    ('event', r'^FIDE WCh (Women )?KO|^FIDE-Wch k\.o\.( f)?$', 'over-the-board', 'mixed',
     'FIDE knockout World Championships 1997-2004: classical games (x.1, x.2) + rapid/blitz tie-breaks (x.3+) under one name', T_FIDE_LAWS),
    # ---------------- tie-breaks and play-offs
    ('event', r'playoff[- ]?\d+pl\b', 'over-the-board', 'classical',
     'historic (1868-1987) play-off events for n-th place ("playoff-1pl"): ordinary classical games, NOT rapid', T_CITY),
    ('event', r'^(HUN|SWE|DDR|FRG|GER|USA|URS)-ch\d* playoff\b(?!.*(\d+pl|\d+\'))', 'over-the-board', 'classical',
     'national-championship play-off matches (Hungary 1959-73, USA 1946-94, GDR/FRG 1975-89, Sweden 1969, Germany 1931) at classical time control; the 1986-1994 ones not individually verified ?', T_CITY),
    ('event', r'^(?!.*\d+pl\b).*\b(zt|Izt|Interzonal|Candidats) ?-?playoff', 'over-the-board', 'classical',
     'zonal/interzonal/candidates play-off tournaments and matches (1950-1995) at classical time control', T_CITY),
    ('event', r'^(?!.*(Blitz|PRO League|Online|Hybrid|Bogdanovich|USCL|US Chess League))(?=.*\b(TB|T/B|Tie-?Break(er)?)\b)', 'over-the-board', 'tiebreak',
     'modern (2005-2024) tie-break games filed as "<event> TB" / "T/B" / "Tie-Break": rapid, blitz or armageddon games deciding places - NOT classical; class per game not recoverable from the name', T_FIDE_LAWS),
    # ---------------- knock-out matches by game: games 1-2 classical, 3+ tie-breaks (issue 47)
    ('event', r'^(FIDE )?World Cup( \d{4})?$|^WCC$', 'over-the-board', 'classical',
     'FIDE World Cup knock-outs 2005-2023, games 1 and 2 of each match (Round "N.1", "N.2"): classical (90/40+30)', S['FIDE_TC'], R_GAMES_12),
    ('event', r'^(FIDE )?World Cup( \d{4})?$|^WCC$', 'over-the-board', 'tiebreak',
     'FIDE World Cup knock-outs 2005-2023, games 3 and later of a match (Round "N.3"+): rapid, blitz and armageddon tie-breaks; except the finals of 2005-2019 (four classical games: some 20 games)', S['FIDE_TC'], R_GAMES_3UP),
    ('event', r'^FIDE WCh (Women )?KO$|^FIDE-Wch k\.o\.$', 'over-the-board', 'classical',
     'FIDE knock-out World Championships 1997-2006, games 1 and 2 of each match: classical', T_FIDE_LAWS, R_GAMES_12),
    ('event', r'^FIDE WCh (Women )?KO$|^FIDE-Wch k\.o\.$', 'over-the-board', 'tiebreak',
     'FIDE knock-out World Championships 1997-2006, games 3 and later of a match: rapid/blitz tie-breaks; except the longer semi-finals and finals played under this name (four to eight classical games: some 50 games; the 1998 and 2002 finals are filed apart)', T_FIDE_LAWS, R_GAMES_3UP),
    ('event', r'^WCh Women( 2015| 2017| 2018)?$', 'over-the-board', 'classical',
     'Women\'s World Championship knock-outs (2010, 2015, 2017, 2018), games 1 and 2 of each match: classical', S['FIDE_TC'], R_GAMES_12),
    ('event', r'^WCh Women( 2015| 2017| 2018)?$', 'over-the-board', 'tiebreak',
     'Women\'s World Championship knock-outs (2010, 2015, 2017, 2018), games 3 and later of a match: rapid/blitz tie-breaks; except the four-game finals (some 8 games)', S['FIDE_TC'], R_GAMES_3UP),
    # ---------------- rapid events whose names do not say "rapid" (issue 47)
    ('event', r'\brap\b', 'over-the-board', 'rapid',
     'TWIC abbreviation "rap" = rapid ("Corsica rap op", "Varna rap m"), as a whole word (never "Rapport")', T_NAME),
    ('event', r"^Cap d.Agde(-[AB]| KO)$|Karpov Trophy(?!.*Blitz)|Trophee Karpov|Trophee CCAS", 'over-the-board', 'rapid',
     'Cap d\'Agde (CCAS) rapid trophies 1998-2010 and the Anatoly Karpov Trophy 2012-2021: 25 min + 10 s, round robin then knock-out (the 1994 "Cap d\'Agde" round robin excluded)', S['CAPDAGDE']),
    # ---------------- classical OTB: world level
    ('event', r'^(?!Online|World Youth|U16)((\d+(st|nd|rd|th) )?Olympiad\b)', 'over-the-board', 'classical',
     'Chess Olympiad (Bled 2002 ... Chennai 2022): 90 min/40 + 30 min + 30 s increment', S['FIDE_TC']),
    ('event', r'^[A-Z][A-Za-z .]+ olm?\b', 'over-the-board', 'classical',
     'historic Olympiads named "<City> ol (Men)" / "<City> olm" (1927-1998), classical', T_CITY),
    ('event', r'^World Championship \d+|^WCh( \d{4})?$|^WCh Women (2013|2016)$|^Wch \(Women\)$', 'over-the-board', 'classical',
     'World Championship matches/tournaments (1886-2023) and Women\'s WCh matches: classical (rapid tie-breaks are filed under separate "WCh Rapid TB/Playoffs" names)', S['FIDE_TC']),
    ('event', r'^WCh Women( 2015| 2017| 2018)?$', 'over-the-board', 'mixed',
     'Women\'s World Championship knockouts (Antakya 2010, Sochi 2015, Tehran 2017, Khanty-Mansiysk 2018): 2 classical games per round (sub-round .1-.2) + rapid/blitz tie-breaks (.3+) under the same name', S['FIDE_TC']),
    ('event', r'^Candidats (Tournament|\(Women\) Tournament|final|qf\d|sf\d|m\d)', 'over-the-board', 'classical',
     'Candidates tournaments and matches 1950-1995, classical', T_CITY),
    ('event', r'^FIDE Candidates( \d{4})?$', 'over-the-board', 'classical',
     'FIDE Candidates tournament 2013-2024: 100/40 + 50/20 + 15 + 30 s', S['FIDE_TC']),
    ('event', r'^FIDE Chess\.com Grand Swiss', 'over-the-board', 'classical',
     'FIDE Grand Swiss 2019, COMIS hotel Douglas, Isle of Man: 100/40+50/20+15+30 s, over the board; chess.com was only the sponsor', S['GSWISS19']),
    ('event', r'^FIDE Grand Swiss', 'over-the-board', 'classical', 'FIDE Grand Swiss 2021 Riga / 2023 Isle of Man: classical, over the board', S['FIDE_TC']),
    ('event', r'^chess\.com IoM Masters(?!.*TB)', 'over-the-board', 'classical',
     'Isle of Man (Chess.com) Masters 2016-2018, Douglas: over-the-board classical open; chess.com = sponsor', S['IOM']),
    ('event', r'^FIDE GP( IQT Final)?$', 'over-the-board', 'mixed',
     'raw name "FIDE GP" covers the 2002 FIDE Rapid Grand Prix KOs (Dubai, Moscow: rapid) and the 2008 Baku / 2010 Astrakhan Grand Prix (classical); split by year (2002 = rapid)', 'https://sportstar.thehindu.com/magazine/the-missing-dollars/article29636309.ece'),
    ('event', r'^\d+(st|nd|rd|th) FIDE GP\b(?!.*\b(TB|Pool)\b)|^FIDE Grand Prix( \d{4})?$|Grand Prix 20(1\d)$|^(Baku|Riga|Tbilisi|Tashkent|Renova|Makedonia) .*(GP|Grand Prix)|^FIDE GP (Paris|Tashkent|Beijing|w)$|^Palma De Mallorca GP', 'over-the-board', 'classical',
     'FIDE Grand Prix tournaments 2002-2019: 100/40+50/20+15+30 s', S['FIDE_TC']),
    ('event', r'^((\d+(st|nd|rd|th)|[IVXL]+) )?(WJun|Wch U20)\b', 'over-the-board', 'classical', 'World Junior (U20) Championship: 90/40+30+30 s', S['FIDE_TC']),
    ('event', r'^(\d+(st|nd|rd|th) )?World Teams\b(?!.*Play-off)|^WchT( 4th)?$|^World Team Ch|^\d+th World Team Championship|^WchT U26', 'over-the-board', 'classical',
     'World Team Championship / student team championship: classical', S['FIDE_TC']),
    ('event', r'^((\d+(st|nd|rd|th)|[IVX]+) )?(IECC|EICC)\b(?!.*(Playoff|T/B|t/b))|^(\d+(st|nd|rd|th) )?ch-EUR Indiv|^\d+(st|nd|rd|th) Euro Indiv|^(\d+(st|nd|rd|th) )?ch-Euro(pe)?( w)?$|^\d+(st|nd|rd|th) ch-EUR( Women| w)?( \d{4})?$', 'over-the-board', 'classical',
     'European Individual Championship (IECC/EICC/ch-EUR Indiv): 90/40+30+30 s', S['FIDE_TC']),
    ('event', r'^(\d+(st|nd|rd|th) |XVI )?(ECC|European Club Cup|ECU Club Cup)\b', 'over-the-board', 'classical',
     'European Club Cup (incl. "ECC Open"): classical team event', S['FIDE_TC']),
    ('event', r'^(\d+(st|nd|rd|th) )?European Teams|^EU-chT|^EuTCh|^ETCC|^\d+th ETC\b|^17th TCh-Eur|^\d+th TCh-Eur|^Eu Team Ch', 'over-the-board', 'classical',
     'European Team Championship: classical', S['FIDE_TC']),
    ('event', r'^EUCup', 'over-the-board', 'classical', 'European Club Cup finals 1967-1999 (EUCup), classical', T_CITY),
    ('event', r'^(\d+(st|nd|rd|th) |[IVX]+ )?American Continental(?!.*TB)|^(\d+(st|nd|rd|th) )?Asian Continental', 'over-the-board', 'classical', 'Continental individual championships: 90/40+30+30 s', S['FIDE_TC']),
    ('event', r'^(\d+(st|nd|rd|th) )?(World Senior|World Seniors|Wch Seniors)', 'over-the-board', 'classical', 'World Senior (team) championships: 90/40+30+30 s', S['FIDE_TC']),
    ('event', r'^Wch U1[0-8]|^EU-ch U\d\d', 'over-the-board', 'classical', 'World/European youth championships, classical', S['FIDE_TC']),
    # ---------------- classical OTB: elite tournaments
    ('event', r'^Hoogovens(-B)?$|^Hoogovens op$|^Wijk op$', 'over-the-board', 'classical',
     'Hoogovens Wijk aan Zee (1950-1999), classical round robins; the 1998 Blitz and 1999 "Hoogovens 5\'" side events are excluded', T_CITY),
    ('event', r'^Corus( [A-C])?$', 'over-the-board', 'classical', 'Corus Wijk aan Zee 2000-2010: classical round robins', T_CITY),
    ('event', r'^\d+(st|nd|rd|th) Tata Steel (Gp[AB]|GM[AB]|Masters)$|^Tata Steel (Challengers|Masters)$', 'over-the-board', 'classical',
     'Tata Steel Chess, Wijk aan Zee (Masters/Challengers): classical; NOT the Tata Steel India rapid/blitz', T_CITY),
    ('event', r'^Linares( \d+th)?$|^(XX[IV]+ )?SuperGM$', 'over-the-board', 'classical', 'Linares super-tournament (1981-2010, "SuperGM" 2000-2010): classical', T_CITY),
    ('event', r'^Tilburg( Fontys)?$', 'over-the-board', 'classical', 'Tilburg (Interpolis) super-tournaments 1977-1998: classical', T_CITY),
    ('event', r'^Dortmund$|^Dortmund-A$|^\d+(st|nd|rd|th) GM( \d{4})?$', 'over-the-board', 'classical',
     'Dortmund Sparkassen (TWIC name "41st GM" etc. with Site Dortmund) / generic "GM" invitationals: classical', T_CITY),
    ('event', r'^GM$', 'over-the-board', 'classical', 'generic TWIC "GM" round robins 2000-2010 (Biel, Montecatini, Clichy...): classical ?', T_CITY),
    ('event', r'^(\d+(st|nd|rd|th) )?Sinquefield Cup(?!.*(TB|Cancelled))', 'over-the-board', 'classical', 'Sinquefield Cup, Saint Louis (GCT): classical', S['GCTPARIS19']),
    ('event', r'^(\d+(st|nd|rd|th) )?(London Classic|London Chess Classic)( \d{4})?$', 'over-the-board', 'classical', 'London Chess Classic elite section: classical', T_CITY),
    ('event', r'^\d+(st|nd|rd|th) Norway Chess( \d{4}| Women)?$', 'over-the-board', 'classical',
     'Norway Chess main games: classical (2 h/game since 2019; 100/40 before); the armageddon and blitz games have their own Event names', S['NORWAY19']),
    ('event', r'^GRENKE Chess Classic|^Superbet Classic(?!.*TB)|^Superbet ROM Classic|^Croatia GCT 2019$', 'over-the-board', 'classical', 'GRENKE Chess Classic, Superbet Classic Bucharest, Croatia GCT 2019 Zagreb: classical GCT/elite events', T_CITY),
    ('event', r'^(Tal Memorial|\d+(st|nd|rd|th) (Tal Memorial|Mikhail Tal Memorial|Tal Mem)( \d{4})?|Tal Mem|Tal mem)$', 'over-the-board', 'classical', 'Tal Memorial main tournament (Moscow 2006-2016, Riga 1995 "Tal mem"): classical round robins', T_CITY),
    ('event', r'^(\d+(st|nd|rd|th) )?Vugar Gashimov Mem \d{4}$|^Gashimov Mem$', 'over-the-board', 'classical', 'Vugar Gashimov Memorial, Shamkir: classical', T_CITY),
    ('event', r'^Capablanca mem(-A)?( \d+th)?$|^((\d+(st|nd|rd|th)|XXX[IVX]*|XL[IVX]*) )?Capablanca [Mm]em Elite', 'over-the-board', 'classical', 'Capablanca Memorial, Havana/Cienfuegos: classical', T_CITY),
    ('event', r'^Rubinstein [Mm]em', 'over-the-board', 'classical', 'Rubinstein Memorial, Polanica Zdroj: classical', T_CITY),
    ('event', r'^Gausdal Int', 'over-the-board', 'classical',
     'Gausdal International (Eikrem\'s Gausdal festival, Norway, 1980-1994): over-the-board norm tournaments; "Int" = International, NOT internet', S['GAUSDAL']),
    ('event', r'Philadelphia Int\b', 'over-the-board', 'classical',
     'Philadelphia International (Continental Chess, the week before the World Open): 9-round over-the-board norm Swiss; "Int" = International', S['PHILINT']),
    ('event', r'^(Gibraltar Masters|Gibtelecom Masters|\d+(st|nd|rd|th) (Gibraltar|Gibtelecom) Masters|Gibraltar Open)' + NOT_TB + r'(?!.*Rapid)', 'over-the-board', 'classical',
     'Gibraltar (Tradewise/Gibtelecom) Masters, Caleta Hotel: classical open; its "TB"/"Playoff" games are rapid/blitz play-offs and are excluded', T_CITY),
    ('event', r'^(\d+(st|nd|rd|th) )?Aeroflot Open(?!.*(Rapid|Blitz))', 'over-the-board', 'classical', 'Aeroflot Open, Moscow: classical open (the Aeroflot Rapid events excluded)', T_CITY),
    ('event', r'^Reykjavik op$|^(N1 |GAMMA |Kvika |MP )?Reykjavik Open|^Reykjavik( m\d?| zt| Olafsson| Summit)?$', 'over-the-board', 'classical', 'Reykjavik Open / Reykjavik tournaments: classical (Reykjavik rapid/TV rapid excluded)', T_CITY),
    ('event', r'^(?!48th)(World op|World Open|Philadelphia World op|\d+(st|nd|rd|th) (Annual )?World Open( \d{4})?)$', 'over-the-board', 'classical',
     'World Open, Philadelphia/King of Prussia/Arlington (Continental Chess): classical main sections (blitz side events have other names; 2020 edition online on ICC, see Site rows)', T_CITY),
    ('event', r'^New York op$|^(?!30th North American)(\d+(st|nd|rd|th) )?(Chicago Open|Foxwoods Open|North American Open|National Open|Canadian Open)( \d{4})?$|^US Open$|^\d+(st|nd|rd|th) US Open( \d{4})?$|^US op$|^USA-op$|^Lone Pine( op)?$|^Lloyds Bank op$', 'over-the-board', 'classical',
     'big North-American/British weekend and festival opens (New York Open, Chicago Open, US Open, Lone Pine, Lloyds Bank): classical main sections', T_CITY),
    ('event', r'^(\d+(st|nd|rd|th) )?Politiken Cup|^Xtracon Chess Open', 'over-the-board', 'classical',
     'Politiken Cup (Copenhagen/Helsingor) and its successor Xtracon Chess Open: classical open', T_CITY),
    ('event', r'^(\d+(st|nd|rd|th) )?ORDIX Open', 'over-the-board', 'rapid',
     'ORDIX Open = the big rapid open of the Chess Classic Mainz (about 20 min per player); Site Mainz/Frankfurt ?', T_CITY),
    ('event', r'^(\d+(st|nd|rd|th) )?(HZ Open|Czech Open|Qatar Masters Open|Sharjah Masters|Abu Dhabi Masters|Dubai Open|GRENKE Chess Open|Sunway Sitges Open|Moscow Open|Baku Open|Nakhchivan Open|Cappelle op|OIBM|Rilton Cup|Bosnia GM|Karpov Poikovsky|Karpov(?! Trophy))\b(?!.*(TB|Rapid|Blitz|Playoff|Online|\bsim))', 'over-the-board', 'classical',
     'well-known classical opens/round robins (Vlissingen, Pardubice, Doha, Sharjah, Abu Dhabi, Dubai, Karlsruhe, Sitges, Moscow, Baku, Nakhchivan, Cappelle, Tegernsee, Stockholm Rilton, Sarajevo, Poikovsky); Rilton Winners Cup 2020 (online) excluded ?', T_CITY),
    ('event', r'^Open( A)?$|^(\d+(st|nd|rd|th)|[IVXL]+) Open( A)?$', 'over-the-board', 'classical',
     'generic TWIC-era "Open" names 1999-2010 (city in Site: Dubai, Moscow, Reykjavik, Ubeda, Santo Domingo...): standard classical Swiss opens; a rapid open could hide here ?', T_CITY),
    ('event', r'^It( [AB])?$|^(\d+(st|nd|rd|th)|[IVXL]+) It( [AB])?$|^Masters$|^\d+(st|nd|rd|th) Masters$|^\d+(st|nd|rd|th) (Final )?Masters( Final)?( \d{4})?$', 'over-the-board', 'classical',
     'generic TWIC-era "It" (invitational tournament) / "Masters" names with a city Site (Pamplona, Dortmund, Biel, Bilbao Final Masters...): classical ?', T_CITY),
    # ---------------- classical OTB: national championships & leagues
    ('event', r'^USA-ch( G[12]| m| Gr-[AB]|/zt| \(Women\)|  sf\d|J)?$', 'over-the-board', 'classical', 'US Championship 1934-1999 (and matches), classical', T_CITY),
    ('event', r'^ch-USA( Gp[AB]| w| Women| Seniors?)?( (19[4-9]\d|200\d|201\d|2019|202[1-9]))?$', 'over-the-board', 'classical',
     'US Championship (Saint Louis since 2009): classical (2020 online rapid edition excluded by year; TB/rapid play-offs have other names)', T_CITY),
    ('event', r'^(\d+(st|nd|rd|th) )?ch-RUS( Superfinal| HL| Higher League| w| Women)?( w)?( \d{4})?$|^\d+(st|nd|rd|th) ch-RUS (HL|Superfinal|Higher League|Qualifier)', 'over-the-board', 'classical', 'Russian Championship (Superfinal, Higher League): classical', T_CITY),
    ('event', r'^((\d+(st|nd|rd|th)|[IVXL]+) )?TCh-RUS( Premier| Men| Women| w)?( \d{4})?$|^\d+(st|nd|rd|th) TCh-RUS Premier', 'over-the-board', 'classical', 'Russian Team Championship (Sochi/Dagomys/Loo): classical (TCh-RUS Rapid/Blitz excluded)', T_CITY),
    ('event', r'^URS-ch\d*( sf| qual| otbor| \(Women\)| U\d\d)?$|^URS-FL\d*$|^URS-chT( sf)?$|^RUS-ch(?!N)|^URS Spartakiad|^URS-JUG|^JUG-URS|^Moscow-ch( sf)?$|^RUS-chT', 'over-the-board', 'classical', 'Soviet championships, First League, team championships and matches (1920s-1991): classical', T_CITY),
    ('event', r'^(ch-)?(Schach)?Bundesliga\b(?!.*\b(TB|Playoff)\b)', 'over-the-board', 'classical', 'German Bundesliga team matches: classical (Bundesliga TB/Playoff games excluded)', T_CITY),
    ('event', r'^(2nd Bundesliga|Frau(en)? ?[Bb]undesliga|Fraubundesliga|Frau Bundesliga)', 'over-the-board', 'classical', 'German 2nd Bundesliga and Women\'s Bundesliga: classical', T_CITY),
    ('event', r'^(?!.*Online)(\d+(st|nd|rd|th) )?TCh-(CHN|FRA|ESP|CZE|AUT|ISR|TUR|POL|HUN|CRO|GRE|SUI|SLO|SRB|ROU|BIH|NED)\b|^(\d+(st|nd|rd|th) )?TCh-(CRO|GRE|SLO)|^CHN Team|^Chinese Teams|^4NCL(?! Online)|^(FRA|ESP|AUT|JUG|NLD)-chT', 'over-the-board', 'classical', 'national team leagues (China, France Top 12/16, Spain Honor, Czech Extraliga, Austria, Israel, Turkey, Poland, Hungary, Croatia, Greece, 4NCL...): classical', T_CITY),
    ('event', r'^(HUN|JUG|CSR|ARG|BCF|NLD|DEN|DDR|FRG|BUL|SWE|POL|ESP)-ch\d*( \(Women\))?( \d+)?( \d+(st|nd|rd|th))?$|^(\d+(st|nd|rd|th) )?ch-(CHN|UKR|FRA|NED|GBR|POL|CZE|ESP|IND|ITA|NOR)( \d{4})?$', 'over-the-board', 'classical', 'national championships (Hungary, Yugoslavia, Czechoslovakia, Argentina, Britain, Netherlands, China, Ukraine, France...): classical', T_CITY),
    ('event', r'^(DSB-\d+\.Kongress|USA-\d+\.Congress)(?!.*playoff)', 'over-the-board', 'classical', 'German DSB congresses 1879-1931 / American Chess Congresses 1857-1904: classical (no clocks early on)', T_CITY),
    # ---------------- classical OTB: historic city tournaments & interzonals
    ('event', r'\bInterzonal$|^Izt$', 'over-the-board', 'classical', 'FIDE Interzonal tournaments 1948-1993: classical', T_CITY),
    ('event', r'^(Moscow|Vienna|London|Budapest|Buenos Aires|Sarajevo|Sochi|Las Palmas|Mar del Plata|Karlsbad|Palma de Mallorca|Belgrade|Biel|Monte Carlo|Tallinn|New York|Munich|Groningen|Yerevan|Bugojno|Amsterdam|Baden-Baden|Madrid|Bled|Paris|St Petersburg|Zuerich|Prague|Tbilisi|Zagreb|Bucharest|Beersheba|Niksic|Berlin|Venice|Dresden|Leningrad|Hastings|Manila|Ostende|Bad Pistyan|San Sebastian|Kemeri|Nuremberg|Baden|Bern|Debrecen|Copenhagen|Vilnius|Skopje|Novi Sad|Vrsac|Vinkovci|Banja Luka|Kislovodsk|Parnu|Jurmala|Minsk|Rostov|Pamplona|San Francisco|Havana|Barcelona|Gothenburg|Netanya|Margate|Dos Hermanas|Sao Paulo|Reggio Emilia|Wijk)( m\d?| mt|-[AB]| it|\+|2)?$', 'over-the-board', 'classical',
     'historic tournaments and matches named only by city (1783-1999), e.g. "London", "Vienna m2", "Moscow": classical (the Site tag is the same city)', T_CITY),
    ('event', r'^IBM$|^OHRA(-B)?$|^Phillips&Drew$|^Clarin$|^Teeside$|^Elenite$|^Troll Masters$|^Peer Gynt$|^Haninge$|^Oakham$|^(\d+(st|nd|rd|th) |XX[IVX]* )?(Monarch Assurance|Sigeman & Co|Tan Chin Nam Cup|North Sea Cup|NH Chess Tournament|HD Bank Cup|Biel GM|Biel Master Open|SPICE Cup Open|Chigorin [Mm]em(orial)?)(?!.*(Rapid|Blitz|KO))', 'over-the-board', 'classical',
     'named invitationals/opens (IBM Amsterdam, OHRA, Phillips&Drew, Sigeman, Monarch Assurance IoM, Biel GM/Master Open, Chigorin Memorial, SPICE Cup...): classical; a few lesser-known names not individually verified ?', T_CITY),
    ('event', r'^Vladimir Petrov Mem', 'over-the-board', 'rapid', 'Vladimir Petrov Memorial, Jurmala: elite rapid invitational ?', T_CITY),
    ('event', r"^FIDE-Wch k\.o\. (g/\d+|f \d+')", 'over-the-board', 'rapid', "FIDE KO World Championship 1998-99 tie-break files whose names give the rapid rate (g/25+10, g/15+10, 25')", T_NAME),
    ('event', r'^Corsica Masters( KO)?$|^\d+(st|nd|rd|th) Corsica Masters KO', 'over-the-board', 'rapid', 'Corsica Masters (Bastia) knockout: rapid KO event ?', T_CITY),
    ('event', r'^PCA/Intel-GP', 'over-the-board', 'rapid',
     'PCA/Intel Grand Prix 1994-95 (Moscow, New York, London, Paris...): Kasparov\'s PCA rapid KO circuit, 25 min + 10 s; a "GP" that is not classical', 'https://zims-en.kiwix.campusafrica.gos.orange.com/wikipedia_en_all_nopic/A/World_Rapid_Chess_Championship'),
    ('event', r'Amplico (AIG )?Life(?!.*(Tiebreak|Playoff))', 'over-the-board', 'rapid', 'Amplico (AIG) Life international rapid tournament, Warsaw ("8th/9th Amplico ... Life Rapid"); rapid; its playoff games faster ?', T_NAME),
    ('event', r'^Roquebrune rapid|Gashimov Mem Rapid|^Aeroflot Open Rapid|^Riga Tech Rapid', 'over-the-board', 'rapid', 'rapid side events (Roquebrune, Gashimov Memorial, Aeroflot, Riga Tech): name says rapid', T_NAME),
    ('event', r'^Brussels blitz', 'over-the-board', 'blitz', 'Brussels blitz (OHRA/SWIFT era), name says blitz', T_NAME),
    ('event', r'^GMA( Baleares Open|-Open|-qual( f)?)?$', 'over-the-board', 'classical',
     'Grandmasters Association events: GMA Open Moscow/Belgrade 1988-89, Baleares Open 1989, GMA qualifiers 1989-90 (World Cup qualification), and 2001-2010 "GMA" round robins (Wijk aan Zee, Bermuda...): classical', T_CITY),
    ('event', r'^zt \d\.\d(?!.*Playoff)', 'over-the-board', 'classical', 'FIDE zonal tournaments 2000-2009 ("zt 1.1" = zone 1.1): classical', S['FIDE_TC']),
    ('event', r"^(?!(New York|World|Lloyds Bank|Reykjavik|Lone Pine|US|USA|Cappelle|Wijk|Hoogovens|Philadelphia World) op)(?!RUS-ch|Donner mem)(?!.*(rap|blitz|Ordix|g/\d|\d'))[A-Z][A-Za-z .'-]+ op( \d+(st|nd|rd|th))?$", 'over-the-board', 'classical',
     'pre-2000 PGN Mentor naming "<City/Sponsor> op" (Groningen op, Lugano op, Vienna op, Biel op...): classical Swiss opens; rapid/blitz-named ones excluded; a few unnamed rapid opens could remain ?', T_CITY),
    ('event', r'^FSGMA? ', 'over-the-board', 'classical', 'First Saturday GM/IM norm round robins, Budapest (monthly): classical norm events', T_CITY),
    ('event', r'^(?!1[12]th)(\d+(st|nd|rd|th) )?Hainan Danzhou( GM)?( \d{4})?$', 'over-the-board', 'classical',
     'Hainan Danzhou super-GM round robins 2010-2019, 2022-23 (e.g. 2011: 90 min + 30 s); 2020-21 online rapid editions are a separate row', 'https://en.chessbase.com/post/2nd-hainan-dangzhou-16-year-old-yu-yangyi-leads'),
    ('event', r'^\d+(st|nd|rd|th) Prague Masters(?!.*TB)|^Riga Tech Open A', 'over-the-board', 'classical', 'Prague Chess Festival Masters (2019-2024) and Riga Technical University Open A: classical', T_CITY),
    ('event', r'^(\d+(st|nd|rd|th) |Milan )?(Alekhine|Vidmar|Staunton|Donner) [Mm]em(orial)?\b(?!.*(rapid|blitz))|^DSV-Turnier', 'over-the-board', 'classical', 'named memorial round robins (Alekhine, Vidmar, Staunton, Donner) and the East German DSV-Turnier: classical', T_CITY),
    ('event', r'^Hastings5960$', 'over-the-board', 'classical',
     'Hastings Premier 1959/60 (TWIC-style season suffix "5960"), NOT Chess960', T_CITY),
    ('event', r'^Hastings \d{4}$', 'over-the-board', 'classical', 'Hastings Christmas congress with season suffix (e.g. "Hastings 7475" = 1974/75): classical', T_CITY),
    # ---------------- simuls / exhibitions
    ('event', r'^(?!Simul$|Oleg Kalinin|.*(Internet|Wireplay|rapid))(.*\bsim(ul)?\b|.*blind-simul)', 'over-the-board', 'classical',
     'simultaneous exhibitions (tour sims 1859-1997, clock sims): played in person, usually without or with long clocks; treated as classical ?', T_CITY),
    ('event', r'Blindfold World Cup|Fibertex Cup Blindfold|Faaborg Midtfyn Blindfold', 'over-the-board', 'rapid',
     'blindfold rapid events (Bilbao Blindfold World Cup 2007 etc.), played in person ?', T_NAME),
    # ---------------- site rows
    ('site', r'^chess\.com INT$', 'online', 'mixed',
     'Site "chess.com INT": every game played on chess.com (Titled Tuesday blitz, PRO League rapid, SCC blitz+bullet, Bullet Championship...); time class comes from the event', T_TWIC_INT),
    ('site', r'^chess24\.com INT$', 'online', 'mixed',
     'Site "chess24.com INT": chess24 Playzone (Champions Chess Tour rapid, Banter Blitz)', T_TWIC_INT),
    ('site', r'^lichess\.org INT$', 'online', 'mixed',
     'Site "lichess.org INT": lichess (Titled Arena bullet, Clutch rapid, 2020 US ch rapid, PNWCC blitz)', T_TWIC_INT),
    ('site', r'^ICC( INT)?$|^ICC m\d|^ICC |^Internet ICC$', 'online', 'mixed',
     'Internet Chess Club (USCL, Dos Hermanas Internet, ICC Open, 2020 World Open/North American Open online editions)', T_TWIC_INT),
    ('site', r'^play ?chess(\.com)? INT$', 'online', 'mixed',
     'playchess.com (ChessBase server): ACP Blitz 2004, European Internet Blitz', T_TWIC_INT),
    ('site', r'^Tornelo INT$', 'online', 'mixed', 'Tornelo platform: ECU online club cups, European Hybrid 2021, online blitz', T_TWIC_INT),
    ('site', r'^Europe-Ech?ecs INT$|^Europe-Chess INT$', 'online', 'mixed', 'Europe-Echecs server: C\'Chartres/Djerba/Cappelle online blitz', T_TWIC_INT),
    ('site', r'^FIDE Online Arena INT$', 'online', 'mixed', 'FIDE Online Arena (Swiss Queens Wednesday 2024 etc.)', T_TWIC_INT),
    ('site', r'^chessassistantclub\.com INT$|^ChessAssistantClub INT$|^bereg\.ru INT$|^KasparovChess INT$|^Kasparovchess\.com INT$|^FICS INT$|^Internet( INT| USCF| \?| CHN| KC| MSN)?$|^Ruschess\.com INT$|^Chess Supersite INT$|^KC-CB INT$', 'online', 'mixed',
     'other internet servers (Chess Assistant Club, bereg.ru, KasparovChess, FICS, "Internet"...)', T_TWIC_INT),
    ('site', r'^Douglas (ENG|IOM)$|^Port Erin( IOM)?$', 'over-the-board', 'classical',
     'Isle of Man venues: chess.com IoM Masters 2016-18, FIDE Chess.com Grand Swiss 2019, Grand Swiss 2023, Monarch Assurance Port Erin: classical OTB despite "chess.com" in the Event (only exception: 3 "chess.com IoM Masters TB" games, see the TB event row)', S['IOM']),
    ('site', r'^Wijk aan Zee( NED)?$|^Beverwijk$', 'over-the-board', 'mixed',
     'Wijk aan Zee/Beverwijk (Hoogovens, Corus, Tata Steel): ~97% classical, but also "Hoogovens 5\'"/"Hoogovens Blitz" (blitz), "Hoogovens rapid", "Wijk m rapid", "Candidats m3 g/45" (rapid) and TB games', T_CITY),
    ('site', r'^Monte Carlo( MNC)?$|^Monaco MNC$', 'over-the-board', 'mixed',
     'Monte Carlo/Monaco: Amber rapid+blindfold (rapid, 1992-2007) but also classical Monte Carlo tournaments 1901-1969', T_CITY),
    ('site', r'^Kolkata IND$', 'over-the-board', 'mixed', 'Kolkata: Tata Steel Chess India rapid + blitz', S['TATAIND']),
    ('site', r'^Stavanger NOR$', 'over-the-board', 'mixed', 'Stavanger: Norway Chess classical games + armageddon + opening blitz', S['NORWAYARM']),
    ('site', r'^Saint Louis USA$', 'over-the-board', 'mixed', 'Saint Louis Chess Club: Sinquefield Cup and US ch (classical) plus Rapid & Blitz and Champions Showdown (rapid/blitz)', S['GCTPARIS19']),
    ('site', r'^Gausdal( NOR)?$', 'over-the-board', 'classical', 'Gausdal, Norway (Gausdal International, Troll Masters, Peer Gynt, Gausdal Classics): classical OTB', S['GAUSDAL']),
    ('site', r'^Philadelphia( USA)?$|^King of Prussia USA$', 'over-the-board', 'mixed', 'Philadelphia area: World Open, Philadelphia International/Open (classical, ~99%) plus "World op 5\'" blitz, play-off/armageddon games and simuls', S['PHILINT']),
    ('site', r'^Caleta ENG$|^Catalan Bay ENG$|^Gibraltar ENG$', 'over-the-board', 'mixed', 'Gibraltar (Caleta Hotel): Gibraltar Masters classical (~98%) plus ~50 TB/"Playoff" rapid/blitz/armageddon games', T_CITY),
]


# ---------------------------------------------------------------- measuring
def compile_rows(rows):
    out = []
    for kind, pat, play, tc, ev, src, *rnd in rows:
        rrx = re.compile(rnd[0]) if rnd else None
        out.append((kind, pat, re.compile(pat, re.IGNORECASE), play, tc, ev, src, rrx))
    return out


def measure(games, rows):
    crow = compile_rows(rows)
    res = []
    matched_any = set()
    matched_event = set()
    per_game_rows = collections.defaultdict(list)
    for i, (kind, pat, rx, play, tc, ev, src, rrx) in enumerate(crow):
        field = 'Event' if kind == 'event' else 'Site'
        names = collections.Counter()
        rounds = collections.Counter()
        years = []
        idx = []
        for gi, g in enumerate(games):
            v = g.get(field, '')
            if rx.search(v) and (rrx is None or rrx.search(g.get('Round', ''))):
                names[v] += 1
                rounds[g.get('Round', '')] += 1
                idx.append(gi)
                y = year_of(g)
                if y:
                    years.append(y)
        for gi in idx:
            per_game_rows[gi].append(i)
        matched_any.update(idx)
        if kind == 'event':
            matched_event.update(idx)
        res.append(dict(kind=kind, pattern=pat, play=play, time_class=tc, evidence=ev, source=src,
                        games=len(idx), years='%d-%d' % (min(years), max(years)) if years else '?',
                        examples=[n for n, _ in names.most_common(3)], names=names,
                        rounds=[r for r, _ in rounds.most_common(3)] if rrx else []))
    return res, matched_any, matched_event, per_game_rows


def write_tsv(games, raw, rows, out=OUT):
    res, any_, ev_, _ = measure(games, rows)
    n = len(games)
    hdr = [
        '# event-series-format.tsv -- labelled Event/Site series from the PGN Mentor "players" collection',
        '# (../shared/data/pgnmentor-players/*.pgn.zst, 249 files) with their TRUE play and time class.',
        '# Purpose: test data for the play (online | over-the-board) and time_class (bullet | blitz | rapid | classical)',
        '# classifier.  Produced by scripts/event_series_census.py (labels curated by hand, counts measured).',
        '# Counts: "games" = DISTINCT games matched by the pattern; a game is identified by',
        '#   (White, Black, Date, Round, Event, Result), so the ~84.6k games present in two players\' files count once.',
        '#   Collection: %d raw games, %d distinct games.' % (raw, n),
        '# Matching: "pattern" is a Python `re` regex, applied with re.search(pattern, tag, re.IGNORECASE) to the',
        '#   Event tag (kind=event) or the Site tag (kind=site).  Event rows are meant to be disjoint; site rows overlap',
        '#   event rows by design (a game can be checked against both; play labels never conflict).',
        '# time_class: FIDE classes (blitz <= 10 min/player incl. 60 x increment, rapid > 10 and < 60, classical >= 60;',
        '#   bullet = under 3 min base, e.g. 1+0, 1+1 - an online convention, not a FIDE class).  "mixed" = the series genuinely contains several classes under the same Event/Site name;',
        '#   the evidence column says how to split (e.g. by "Rapid"/"Blitz" in the name, or by sub-round .3+ for tie-breaks).',
        '#   For KO events whose blitz/armageddon tie-breaks share the Event name but are a small minority, the majority',
        '#   class is given and the evidence says so.  A "?" in evidence marks a label that is not fully verified.',
        '#   "tiebreak" = tie-break or play-off games at rapid, blitz or armageddon rates, which one the tags do not say.',
        '# rounds: for a row of some games of a series only (a knock-out match\'s games 1-2, or 3 and later), the commonest',
        '#   Round tags of its games; the row\'s Round regex is in scripts/event_series_census.py.  Empty: any round.',
        '# Precedence: where an event row and a site row both match a game, the event row\'s time_class wins',
        '#   (site rows exist mainly because the Site tag decides play: "... INT" = online server, a city = over the board).',
        '# source: a URL returned by a search of stored public pages, or a textual source; never an invented URL.',
        '# Coverage: rows match %d of %d distinct games (%.1f%%); event rows alone %d (%.1f%%).' % (
            len(any_), n, 100.0 * len(any_) / n, len(ev_), 100.0 * len(ev_) / n),
    ]
    cols = ['kind', 'pattern', 'examples', 'games', 'years', 'play', 'time_class', 'evidence', 'source', 'rounds']
    with open(out, 'w', encoding='utf-8', newline='\n') as fh:
        for h in hdr:
            fh.write(h + '\n')
        fh.write('\t'.join(cols) + '\n')
        for r in res:
            vals = [r['kind'], r['pattern'], ' | '.join(r['examples']), str(r['games']), r['years'],
                    r['play'], r['time_class'], r['evidence'], r['source'], ' | '.join(r['rounds'])]
            for v in vals:
                assert '\t' not in v and '\n' not in v, v
            fh.write('\t'.join(vals) + '\n')
    return res, any_, ev_


def census(games, top):
    ser = collections.defaultdict(list)
    for g in games:
        ser[series_key(g.get('Event', ''))].append(g)
    items = sorted(ser.items(), key=lambda kv: -len(kv[1]))
    return items[:top] if top else items


def check(games, rows, min_games=500):
    res, any_, ev_, per_game = measure(games, rows)
    ok = True
    for r in res:
        if r['games'] == 0:
            print('NO MATCH:', r['pattern'])
            ok = False
    # event-row overlaps with conflicting labels
    conflicts = collections.Counter()
    crow = compile_rows(rows)
    for gi, idxs in per_game.items():
        ev_rows = [i for i in idxs if crow[i][0] == 'event']
        if len(ev_rows) > 1:
            conflicts[tuple(ev_rows)] += 1
        plays = {crow[i][3] for i in idxs}
        if len(plays) > 1:
            conflicts[('PLAY-CONFLICT',) + tuple(idxs)] += 1
        tcs = {crow[i][4] for i in idxs if crow[i][4] != 'mixed'}
        if len(tcs) > 1:
            conflicts[('TC-CONFLICT',) + tuple(idxs)] += 1
    for k, v in conflicts.most_common(40):
        print('overlap', v, [crow[i][1] if isinstance(i, int) else i for i in k])
    # >= min_games series coverage
    missing = []
    big = [(k, v) for k, v in census(games, 0) if len(v) >= min_games]
    idx_of = {id(g): i for i, g in enumerate(games)}
    for k, v in big:
        hit = sum(1 for g in v if idx_of[id(g)] in ev_)
        if hit < 0.9 * len(v):
            missing.append((k, len(v), hit))
    print('series >= %d games: %d; not covered >=90%% by event rows: %d' % (min_games, len(big), len(missing)))
    for m in missing:
        print('   MISSING', m)
    print('coverage any=%d event=%d of %d' % (len(any_), len(ev_), len(games)))
    return ok and not missing, res


ROUND_OF = {(r[1], r[3]): r[6] for r in ROWS if len(r) > 6}


def verify_tsv(games, path=OUT):
    """Re-read the TSV and verify it against the collection: every pattern compiles and
    matches each of its examples (in the right tag), game counts and year ranges are
    reproduced, and the label vocabulary is respected."""
    ok = True
    cols = None
    nrows = 0
    union = set()
    with open(path, encoding='utf-8') as fh:
        for line in fh:
            line = line.rstrip('\n')
            if line.startswith('#') or not line:
                continue
            f = line.split('\t')
            if cols is None:
                cols = f
                continue
            r = dict(zip(cols, f))
            nrows += 1
            rx = re.compile(r['pattern'], re.IGNORECASE)
            field = 'Event' if r['kind'] == 'event' else 'Site'
            for ex in r['examples'].split(' | '):
                if not rx.search(ex):
                    print('EXAMPLE NOT MATCHED', r['pattern'], ex)
                    ok = False
            rrx = ROUND_OF.get((r['pattern'], r['time_class']))
            idx = [i for i, g in enumerate(games) if rx.search(g.get(field, ''))
                   and (rrx is None or re.search(rrx, g.get('Round', '')))]
            union.update(idx)
            ys = [y for y in (year_of(games[i]) for i in idx) if y]
            yrs = '%d-%d' % (min(ys), max(ys)) if ys else '?'
            if int(r['games']) != len(idx) or r['years'] != yrs:
                print('COUNT MISMATCH', r['pattern'], r['games'], len(idx), r['years'], yrs)
                ok = False
            if r['kind'] not in ('event', 'site') or r['play'] not in ('online', 'over-the-board') or \
                    r['time_class'] not in ('bullet', 'blitz', 'rapid', 'classical', 'mixed', 'tiebreak') or not r['source']:
                print('BAD LABEL', r)
                ok = False
    print('TSV rows %d, union coverage %d / %d distinct games (%.1f%%)' % (
        nrows, len(union), len(games), 100.0 * len(union) / len(games)))
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default=DATA)
    ap.add_argument('--census', type=int, default=0, help='print the N largest series keys')
    ap.add_argument('--write', action='store_true')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--out', default=OUT)
    a = ap.parse_args()
    games, raw = load_games(a.data)
    print('raw games %d, distinct %d' % (raw, len(games)), file=sys.stderr)
    if a.census:
        for k, v in census(games, a.census):
            ys = [y for y in (year_of(g) for g in v) if y]
            ex = collections.Counter(g.get('Event', '') for g in v).most_common(3)
            st = collections.Counter(g.get('Site', '') for g in v).most_common(3)
            print('%6d\t%s\t%s\t%s-%s\t%s' % (len(v), k, ' | '.join(e for e, _ in ex),
                                            min(ys) if ys else '?', max(ys) if ys else '?',
                                            ', '.join('%s (%d)' % s for s in st)))
    if a.write:
        write_tsv(games, raw, ROWS, a.out)
    if a.check:
        ok, _ = check(games, ROWS)
        if os.path.exists(a.out):
            ok = verify_tsv(games, a.out) and ok
        sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
