//! Los pasos del reproductor a partir de lo grabado, con la frase de cada uno.
//!
//! Lo que Tokio deja ver en cada evento: qué tarea se lanza, se sondea o
//! termina, en qué trabajador y cuándo; y, leídas en ese instante, la
//! profundidad de cada cola local y de la cola global (exactas) y los
//! contadores de cada trabajador (robadas, robos, desbordes), que solo cambian
//! cuando el trabajador los publica: en su mantenimiento y al aparcarse.
//!
//! Tokio no avisa de un robo ni de una toma de la cola global: se deducen de
//! cómo cambian las colas entre el evento anterior del trabajador y el
//! sondeo siguiente, y de dónde estaba la tarea. Entre esos dos momentos el
//! trabajador no ejecuta código de ninguna tarea, así que lo que cambia su
//! cola local y la global es lo que él sacó de ellas (o lo que otro tocó a la
//! vez). Cuando las cuentas cuadran con una sola explicación, la frase la da;
//! cuando no, dice lo que se vio y que no basta.

use super::{Carga, Evento, Grabacion, Muestra, Que};

/// Lo que el reproductor enseña de un trabajador.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Columna {
    pub sondea: Option<usize>,
    pub cola: u64,
    pub robadas: u64,
    pub robos: u64,
    pub desbordes: u64,
    pub dormido: bool,
}

/// Lo que el reproductor enseña en un paso.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Estado {
    pub columnas: Vec<Columna>,
    pub global: u64,
}

/// Un paso del reproductor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paso {
    /// `lanza`, `desborde`, `sondea`, `ranura`, `robo`, `global`, `acaba`,
    /// `duerme`, `despierta` o `cierre`.
    pub tipo: &'static str,
    pub columna: Option<usize>,
    pub texto: String,
    pub estado: Estado,
    /// Cuántas tareas se llevó el trabajador en un `robo` o una toma de la
    /// cola `global` (0 en los demás pasos).
    pub movidas: u64,
}

/// De dónde viene la tarea que un trabajador empieza a sondear.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origen {
    /// Ni su cola local ni la global cambian: la ranura LIFO.
    Ranura,
    /// Su cola local baja en una.
    ColaLocal,
    /// Robó `n` (su cola estaba vacía y sube en n − 1; la global no cambia).
    Robo(u64),
    /// Tomó `n` de la cola global (la global baja en n, su cola sube en n − 1).
    Global(u64),
    /// Su cola local sube sin robar ni tomar de la global: tareas suyas que
    /// vuelven a la cola (las que cedieron el turno).
    Vuelven(u64),
    /// Las muestras no cuadran con una sola explicación.
    NoSeSabe,
}

/// Dónde dejó la tarea su último evento.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hogar {
    Fuera,
    En(usize),
}

/// Un lote de tareas que un trabajador se llevó a su cola local.
struct Lote {
    paso: usize,
    quedan: u64,
}

/// Lo que dicen las muestras de un desborde: la cola local y la global, antes y después.
#[derive(Debug, Clone, Copy)]
struct Desborde {
    cola: (u64, u64),
    global: (u64, u64),
}

/// Una tarea que lanzó el sondeo en curso de un trabajador.
#[derive(Debug, Clone, Copy)]
struct Lanzada {
    padre: usize,
    ultima: usize,
    cuantas: u64,
}

/// El estado del reproductor en la grabación al empezar.
pub fn inicial(g: &Grabacion) -> Estado {
    let columnas = (0..g.trabajadores)
        .map(|w| Columna {
            sondea: None,
            cola: 0,
            robadas: 0,
            robos: 0,
            desbordes: 0,
            dormido: g.dormidos_al_empezar.get(w).copied().unwrap_or(false),
        })
        .collect();
    Estado { columnas, global: 0 }
}

/// Los pasos del reproductor, en orden.
pub fn pasos(g: &Grabacion) -> Vec<Paso> {
    Deductor::nuevo(g).pasos()
}

fn contador(m: &Muestra, w: usize) -> super::Contadores {
    m.trabajadores.get(w).copied().unwrap_or_default()
}

/// `12 µs` o `1,2 ms`.
pub fn duracion(ns: u64) -> String {
    if ns < 1_000_000 {
        let us = ns.div_ceil(1000);
        if us >= 1000 { "1,0 ms".to_string() } else { format!("{us} µs") }
    } else {
        let decimas = (ns + 50_000) / 100_000;
        format!("{},{} ms", decimas / 10, decimas % 10)
    }
}

fn tareas(n: u64) -> String {
    if n == 1 { "1 tarea".to_string() } else { format!("{n} tareas") }
}

/// «pasó de 3 a 5» o «sigue en 3».
fn cambio(a: u64, b: u64) -> String {
    if a == b { format!("sigue en {a}") } else { format!("pasó de {a} a {b}") }
}

/// Las que quedan de un lote de `k` cuando se sondea una: «la otra» o «las otras 3».
fn resto(k: u64) -> String {
    if k == 2 { "la otra".to_string() } else { format!("las otras {}", k - 1) }
}

fn crece<T: Clone>(v: &mut Vec<T>, t: usize, x: T) {
    if v.len() <= t {
        v.resize(t + 1, x);
    }
}

fn publicados(robadas: u64, robos: u64, desbordes: u64) -> String {
    let robos = if robos == 1 { "1 robo".to_string() } else { format!("{robos} robos") };
    let desbordes = if desbordes == 1 { "1 desborde".to_string() } else { format!("{desbordes} desbordes") };
    format!("{robadas} robadas en {robos} y {desbordes}")
}

struct Deductor<'a> {
    g: &'a Grabacion,
    e: &'a [Evento],
    /// El estado tras cada evento.
    estados: Vec<Estado>,
    /// Para cada `Empieza`: su `Acaba` y, si termina, su `Termina`.
    fin: Vec<Option<(usize, Option<usize>)>>,
    /// El evento anterior del mismo trabajador.
    anterior: Vec<Option<usize>>,
}

/// Lo que el recorrido va sabiendo mientras escribe los pasos.
struct Recorrido {
    hogar: Vec<Option<Hogar>>,
    sondeada: Vec<bool>,
    lotes: Vec<Vec<Lote>>,
    /// El paso donde cada trabajador desbordó por última vez.
    desbordo_en: Vec<Option<usize>>,
    /// Un desborde visto en las muestras que aún no se ha contado.
    desborde_por_contar: Vec<Option<Desborde>>,
    /// Lo que el sondeo en curso de cada trabajador lleva lanzado.
    lanzadas: Vec<Option<Lanzada>>,
    /// Lo último que cada trabajador publicó y ya se contó.
    publicado: Vec<(u64, u64, u64)>,
    /// Los `Acaba` que no caben en el paso de su `Empieza`.
    acaba_aparte: Vec<bool>,
    /// Las tareas que se llevó el sondeo que se está contando (robo o toma de la global).
    movidas: Option<u64>,
}

impl<'a> Deductor<'a> {
    fn nuevo(g: &'a Grabacion) -> Self {
        let e = &g.eventos[..];
        let n = g.trabajadores;
        let mut estados = Vec::with_capacity(e.len());
        let mut estado = inicial(g);
        for ev in e {
            if let Some(w) = ev.trabajador.filter(|w| *w < n) {
                let c = &mut estado.columnas[w];
                match ev.que {
                    Que::Empieza => c.sondea = ev.tarea,
                    Que::Acaba if c.sondea == ev.tarea => c.sondea = None,
                    Que::Duerme => c.dormido = true,
                    Que::Despierta => c.dormido = false,
                    _ => {}
                }
            }
            for (w, c) in estado.columnas.iter_mut().enumerate() {
                let m = contador(&ev.muestra, w);
                (c.cola, c.robadas, c.robos, c.desbordes) = (m.cola, m.robadas, m.robos, m.desbordes);
            }
            estado.global = ev.muestra.global;
            estados.push(estado.clone());
        }
        let mut fin = vec![None; e.len()];
        let mut anterior = vec![None; e.len()];
        let mut ultimo: Vec<Option<usize>> = vec![None; n];
        let mut abierto: Vec<Option<usize>> = vec![None; n];
        let mut termina: Vec<Option<usize>> = vec![None; n];
        for (i, ev) in e.iter().enumerate() {
            let Some(w) = ev.trabajador.filter(|w| *w < n) else { continue };
            anterior[i] = ultimo[w];
            ultimo[w] = Some(i);
            match ev.que {
                Que::Empieza => (abierto[w], termina[w]) = (Some(i), None),
                Que::Termina => termina[w] = Some(i),
                Que::Acaba => {
                    if let Some(k) = abierto[w].take()
                        && e[k].tarea == ev.tarea
                    {
                        fin[k] = Some((i, termina[w].take()));
                    }
                }
                _ => {}
            }
        }
        Deductor { g, e, estados, fin, anterior }
    }

    fn pasos(&self) -> Vec<Paso> {
        let n = self.g.trabajadores;
        let mut r = Recorrido {
            hogar: Vec::new(),
            sondeada: Vec::new(),
            lotes: (0..n).map(|_| Vec::new()).collect(),
            desbordo_en: vec![None; n],
            desborde_por_contar: vec![None; n],
            lanzadas: vec![None; n],
            publicado: vec![(0, 0, 0); n],
            acaba_aparte: vec![false; self.e.len()],
            movidas: None,
        };
        let mut pasos: Vec<Paso> = Vec::new();
        for (i, ev) in self.e.iter().enumerate() {
            let w = ev.trabajador.filter(|w| *w < n);
            if let Some(w) = w
                && let Some(d) = self.desborde(i, w)
            {
                r.desborde_por_contar[w] = Some(d);
            }
            let numero = pasos.len() + 1;
            let paso = match (&ev.que, ev.tarea, w) {
                (Que::Lanza { padre, .. }, Some(t), _) => {
                    crece(&mut r.hogar, t, None);
                    crece(&mut r.sondeada, t, false);
                    r.hogar[t] = Some(w.map_or(Hogar::Fuera, Hogar::En));
                    Some(self.lanza(t, *padre, w, &mut r))
                }
                (Que::Empieza, Some(t), Some(w)) => {
                    crece(&mut r.hogar, t, None);
                    crece(&mut r.sondeada, t, false);
                    let (tipo, mut texto) = self.empieza(i, t, w, &mut r, numero);
                    r.sondeada[t] = true;
                    r.hogar[t] = Some(Hogar::En(w));
                    r.lanzadas[w] = None;
                    match self.fin[i] {
                        Some((j, termina)) if self.cabe_en_su_paso(i, j, w) => {
                            texto.push_str(&format!(
                                " Dura {}{}",
                                duracion(self.e[j].t_ns - ev.t_ns),
                                self.desenlace(t, termina)
                            ));
                        }
                        Some((j, _)) => r.acaba_aparte[j] = true,
                        None => {}
                    }
                    Some((tipo, texto))
                }
                (Que::Acaba, Some(t), Some(w)) if r.acaba_aparte[i] => Some(self.acaba(i, t, w, &r)),
                (Que::Duerme, _, Some(w)) => {
                    Some(("duerme", format!("El trabajador {w} no encuentra nada que hacer y se aparca.")))
                }
                (Que::Despierta, _, Some(w)) => {
                    Some(("despierta", format!("El trabajador {w} se despierta y busca trabajo.")))
                }
                (Que::Cierre, _, _) => Some(("cierre", self.cierre(ev))),
                _ => None,
            };
            let Some((mut tipo, mut texto)) = paso else { continue };
            // Un desborde que las muestras de este trabajador acaban de enseñar.
            if let Some(w) = w
                && let Some(d) = r.desborde_por_contar[w].take()
            {
                tipo = "desborde";
                r.desbordo_en[w] = Some(numero);
                texto.push_str(&format!(
                    " Entre la muestra anterior de este trabajador y esta, su cola local {} y la global {}: la cola \
                     local estaba llena y desbordó. Tokio manda a la cola global la mitad más nueva de la cola local \
                     y la tarea que llegaba.",
                    cambio(d.cola.0, d.cola.1),
                    cambio(d.global.0, d.global.1)
                ));
            }
            // Lo que algún trabajador acaba de publicar.
            for (v, ya) in r.publicado.iter_mut().enumerate() {
                let c = contador(&ev.muestra, v);
                let ahora = (c.robadas, c.robos, c.desbordes);
                if ahora != *ya && tipo != "cierre" {
                    texto.push_str(&format!(
                        " El trabajador {v} acaba de publicar sus contadores: {}.",
                        publicados(c.robadas, c.robos, c.desbordes)
                    ));
                    *ya = ahora;
                }
            }
            let movidas = match (ev.que == Que::Empieza, r.movidas) {
                (true, Some(k)) => k,
                _ => 0,
            };
            r.movidas = None;
            pasos.push(Paso { tipo, columna: w, texto, estado: self.estados[i].clone(), movidas });
        }
        pasos
    }

    /// ¿Enseñan las muestras de `w` un desborde entre su evento anterior y el `i`?
    /// Solo puede ocurrir mientras `w` ejecuta el código de una tarea.
    fn desborde(&self, i: usize, w: usize) -> Option<Desborde> {
        if matches!(self.e[i].que, Que::Empieza | Que::Duerme | Que::Despierta | Que::Cierre) {
            return None;
        }
        let a = self.anterior[i]?;
        let (antes, ahora) = (&self.e[a].muestra, &self.e[i].muestra);
        let (c0, c1) = (contador(antes, w).cola, contador(ahora, w).cola);
        (c1 + 64 <= c0 && ahora.global >= antes.global + 64)
            .then_some(Desborde { cola: (c0, c1), global: (antes.global, ahora.global) })
    }

    /// ¿Cabe el sondeo entero (del `Empieza` `i` a su `Acaba` `j`) en un paso?
    /// Sí, si entre medias no pasa nada que dé paso ni desborda nada.
    fn cabe_en_su_paso(&self, i: usize, j: usize, w: usize) -> bool {
        self.e[i + 1..j].iter().all(|x| x.que == Que::Termina && x.tarea == self.e[i].tarea)
            && (i + 1..=j).all(|k| self.desborde(k, w).is_none())
    }

    fn desenlace(&self, t: usize, termina: Option<usize>) -> String {
        match (termina, self.g.carga) {
            (Some(_), _) => " y termina.".to_string(),
            (None, Carga::Reparto) if t > 0 => {
                " y no termina: cede el turno (yield_now) y queda pendiente.".to_string()
            }
            (None, _) => " y no termina: queda pendiente.".to_string(),
        }
    }

    fn acaba(&self, i: usize, t: usize, w: usize, r: &Recorrido) -> (&'static str, String) {
        let ev = &self.e[i];
        let inicio = (0..i).rev().find(|&k| self.e[k].que == Que::Empieza && self.e[k].trabajador == Some(w));
        let dura = inicio.map_or(String::new(), |k| format!(" tras {}", duracion(ev.t_ns - self.e[k].t_ns)));
        let termina = inicio.and_then(|k| self.fin[k]).and_then(|(_, t)| t);
        let lanzadas = r.lanzadas[w]
            .filter(|l| l.padre == t)
            .map_or(String::new(), |l| format!(", después de lanzar {},", tareas(l.cuantas)));
        let fin = self.desenlace(t, termina);
        ("acaba", format!("La tarea {t} acaba su sondeo en el trabajador {w}{dura}{lanzadas}{fin}"))
    }

    fn lanza(&self, t: usize, padre: Option<usize>, w: Option<usize>, r: &mut Recorrido) -> (&'static str, String) {
        let Some(w) = w else {
            return (
                "lanza",
                format!("Se lanza la tarea {t} desde fuera del runtime: Tokio la pone en la cola global."),
            );
        };
        let previa = r.lanzadas[w].filter(|l| Some(l.padre) == padre);
        if let Some(p) = padre {
            r.lanzadas[w] = Some(Lanzada { padre: p, ultima: t, cuantas: previa.map_or(1, |l| l.cuantas + 1) });
        }
        let texto = match (previa, padre) {
            (Some(l), Some(p)) => {
                format!("La tarea {p} lanza la {t}: a la ranura LIFO; la {} pasa a la cola local.", l.ultima)
            }
            (_, Some(p)) => format!(
                "Al sondearse, la tarea {p} lanza la tarea {t} en el trabajador {w}. Según el código de Tokio, la \
                 nueva entra en la ranura LIFO del trabajador y la que ocupaba la ranura pasa al final de su cola \
                 local. (La muestra de la cola local se toma antes de colocar la nueva.)"
            ),
            (_, None) => format!("Se lanza la tarea {t} desde el trabajador {w}, fuera de toda tarea."),
        };
        ("lanza", texto)
    }

    /// De dónde sacó `w` la tarea que empieza a sondear en el evento `i`, y
    /// a quién se la robó, si fue un robo y se sabe.
    fn origen(&self, i: usize, w: usize, hogar: Hogar, ranura_posible: bool) -> (Origen, Option<usize>) {
        let (d0, d1, g0, g1) = self.colas(i, w);
        let delta = d1 as i64 - d0 as i64;
        let toma = g0 as i64 - g1 as i64;
        let propia = hogar == Hogar::En(w);
        // El trabajador cuya cola más bajó en el mismo intervalo: la víctima, si hubo robo.
        let antes = self.anterior[i].map(|a| &self.e[a].muestra);
        let victima = (0..self.g.trabajadores)
            .filter(|&v| v != w)
            .map(|v| {
                let c0 = antes.map_or(0, |m| contador(m, v).cola);
                (c0.saturating_sub(contador(&self.e[i].muestra, v).cola), v)
            })
            .max()
            .filter(|(baja, _)| *baja > 0);
        let robo = |n: u64| victima.filter(|(baja, _)| *baja >= n).map(|(_, v)| v);
        match (toma, delta) {
            (0, 0) if propia && ranura_posible => (Origen::Ranura, None),
            (0, 0) if d0 == 0 && robo(1).is_some() => (Origen::Robo(1), robo(1)),
            (0, 0) if propia => (Origen::Ranura, None),
            (0, -1) => (Origen::ColaLocal, None),
            (0, d) if d > 0 && d0 == 0 && robo(d as u64 + 1).is_some() => {
                (Origen::Robo(d as u64 + 1), robo(d as u64 + 1))
            }
            (0, d) if d > 0 && propia => (Origen::Vuelven(d as u64), None),
            (k, d) if k >= 1 && d == k - 1 => (Origen::Global(k as u64), None),
            _ => (Origen::NoSeSabe, None),
        }
    }

    /// La cola local de `w` y la global en su evento anterior y en el `i`.
    fn colas(&self, i: usize, w: usize) -> (u64, u64, u64, u64) {
        let ahora = &self.e[i].muestra;
        let antes = self.anterior[i].map(|a| &self.e[a].muestra);
        let (d0, g0) = antes.map_or((0, 0), |m| (contador(m, w).cola, m.global));
        (d0, contador(ahora, w).cola, g0, ahora.global)
    }

    fn empieza(&self, i: usize, t: usize, w: usize, r: &mut Recorrido, numero: usize) -> (&'static str, String) {
        let hogar = r.hogar[t].unwrap_or(Hogar::En(w));
        // La tarea que acaba de sondear este mismo trabajador, si la lanzó la última.
        let previa = self.anterior[i].filter(|&a| self.e[a].que == Que::Acaba).and_then(|a| self.e[a].tarea);
        let la_ultima = r.lanzadas[w].is_some_and(|l| Some(l.padre) == previa && l.ultima == t);
        let (origen, victima) = self.origen(i, w, hogar, la_ultima);
        let (d0, d1, g0, g1) = self.colas(i, w);
        let vez = if r.sondeada[t] { "vuelve a sondear" } else { "sondea" };
        let n = self.g.trabajadores;
        match (origen, hogar) {
            (Origen::Ranura, _) if la_ultima => (
                "ranura",
                format!(
                    "El trabajador {w} sondea la tarea {t} justo después de la {}, que la lanzó la última. Ni su \
                     cola local ni la global cambian: la tarea sale de la ranura LIFO, que el trabajador mira antes \
                     que su cola.",
                    previa.unwrap_or_default()
                ),
            ),
            (Origen::Ranura, _) => (
                "ranura",
                format!(
                    "El trabajador {w} {vez} la tarea {t}. Ni su cola local ni la global cambian: la tarea sale de \
                     su ranura LIFO."
                ),
            ),
            (Origen::Robo(k), _) => {
                r.movidas = Some(k);
                r.lotes[w].push(Lote { paso: numero, quedan: k - 1 });
                let a = victima.map_or(String::new(), |v| format!(" al trabajador {v}"));
                let que = if k == 1 {
                    format!("roba 1 tarea{a}, la {t}, y la sondea ya")
                } else {
                    format!(
                        "roba {k} tareas{a}: sondea ya la última que se llevó, la {t}, y deja {} en su cola local",
                        resto(k)
                    )
                };
                let suya = victima.map_or(String::new(), |v| {
                    let antes = self.anterior[i].map_or(0, |a| contador(&self.e[a].muestra, v).cola);
                    format!("; la del trabajador {v}, {}", cambio(antes, contador(&self.e[i].muestra, v).cola))
                });
                (
                    "robo",
                    format!(
                        "El trabajador {w} no tiene nada en su cola local y {que}. (Desde su evento anterior, su cola \
                         {}{suya}; la global {}.)",
                        cambio(d0, d1),
                        cambio(g0, g1)
                    ),
                )
            }
            (Origen::Global(k), h) => {
                r.movidas = Some(k);
                if k > 1 {
                    r.lotes[w].push(Lote { paso: numero, quedan: k - 1 });
                }
                let por_que = match h {
                    Hogar::Fuera => " (se lanzó desde fuera del runtime)".to_string(),
                    Hogar::En(v) => match r.desbordo_en.get(v).copied().flatten() {
                        Some(p) => format!(" (llegó allí con el desborde del paso {p})"),
                        None => String::new(),
                    },
                };
                let que = if k == 1 {
                    let antes = if d0 > 0 {
                        " Su cola local no está vacía: le tocaba mirar antes la global, como hace cada cierto número \
                         de vueltas."
                    } else {
                        ""
                    };
                    format!("toma la tarea {t} de la cola global{por_que} y la sondea.{antes}")
                } else {
                    let formula = if k == g0 / n as u64 + 1 {
                        format!(", la parte que le da la fórmula de Tokio: {g0} / {n} + 1")
                    } else {
                        String::new()
                    };
                    format!(
                        "toma un lote de {k} tareas de la cola global{formula}. Sondea ya la primera, la {t}{por_que}, \
                         y deja {} en su cola local.",
                        resto(k)
                    )
                };
                (
                    "global",
                    format!(
                        "El trabajador {w} {que} (Desde su evento anterior, su cola {}; la global {}.)",
                        cambio(d0, d1),
                        cambio(g0, g1)
                    ),
                )
            }
            (Origen::ColaLocal, _) => {
                // Un robo o una toma de la global llegan con la cola vacía: sus
                // tareas son las primeras que salen después.
                let de = match r.lotes[w].iter_mut().find(|l| l.quedan > 0) {
                    Some(l) => {
                        l.quedan -= 1;
                        format!(" (llegó con el lote del paso {})", l.paso)
                    }
                    None => String::new(),
                };
                ("sondea", format!("El trabajador {w} {vez} la tarea {t}, del frente de su cola local{de}."))
            }
            (Origen::Vuelven(k), _) => (
                "sondea",
                format!(
                    "El trabajador {w} {vez} la tarea {t}. Su cola local {} sin robar ni tomar nada de la global: \
                     son tareas de este trabajador que vuelven (la {t}, a la ranura LIFO, y {k} más, a la cola). Son \
                     las que cedieron el turno: Tokio las despierta cuando el trabajador se queda sin nada o en su \
                     mantenimiento.",
                    cambio(d0, d1)
                ),
            ),
            (Origen::NoSeSabe, _) => (
                "sondea",
                format!(
                    "El trabajador {w} {vez} la tarea {t}. Desde su evento anterior, su cola local {} y la global {}: \
                     con otros trabajadores tocando las colas a la vez, las muestras no bastan para saber de dónde \
                     la sacó.",
                    cambio(d0, d1),
                    cambio(g0, g1)
                ),
            ),
        }
    }

    fn cierre(&self, ev: &Evento) -> String {
        let mut texto = "La carga ha terminado y el runtime se apaga; al apagarse, cada trabajador publica los \
                         contadores que le faltaban. En total:"
            .to_string();
        for w in 0..self.g.trabajadores {
            let c = contador(&ev.muestra, w);
            let sep = if w == 0 { "" } else { ";" };
            texto.push_str(&format!("{sep} el trabajador {w}, {}", publicados(c.robadas, c.robos, c.desbordes)));
        }
        texto.push('.');
        texto
    }
}

#[cfg(test)]
mod pruebas {
    use super::super::{Contadores, Evento, Grabacion, Muestra, Que};
    use super::*;

    /// Un evento con las colas dadas: (cola del 0, cola del 1, global) y los robos del 1.
    fn ev(t: u64, que: Que, tarea: Option<usize>, w: Option<usize>, colas: (u64, u64, u64), robos1: u64) -> Evento {
        let c = |cola, robos| Contadores { cola, robadas: robos * 4, robos, ..Contadores::default() };
        Evento {
            t_ns: t * 1000,
            que,
            tarea,
            trabajador: w,
            muestra: Muestra { global: colas.2, trabajadores: vec![c(colas.0, 0), c(colas.1, robos1)] },
        }
    }

    fn lanza(padre: Option<usize>) -> Que {
        Que::Lanza { padre, lugar: "x.rs:1".into() }
    }

    /// La tarea 0 llega de fuera, el trabajador 0 la toma y lanza tres; la 3
    /// sale de la ranura, el 1 roba 2 (la 1 y la 2) y sondea la 2.
    fn grabacion() -> Grabacion {
        use Que::*;
        let eventos = vec![
            ev(0, lanza(None), Some(0), None, (0, 0, 1), 0),
            ev(1, Despierta, None, Some(0), (0, 0, 1), 0),
            ev(2, Empieza, Some(0), Some(0), (0, 0, 0), 0),
            ev(3, lanza(Some(0)), Some(1), Some(0), (0, 0, 0), 0),
            ev(4, lanza(Some(0)), Some(2), Some(0), (0, 0, 0), 0),
            ev(5, lanza(Some(0)), Some(3), Some(0), (1, 0, 0), 0),
            ev(6, Termina, Some(0), Some(0), (2, 0, 0), 0),
            ev(7, Acaba, Some(0), Some(0), (2, 0, 0), 0),
            ev(8, Empieza, Some(3), Some(0), (2, 0, 0), 0),
            ev(9, Despierta, None, Some(1), (2, 0, 0), 0),
            ev(10, Empieza, Some(2), Some(1), (0, 1, 0), 0),
            ev(11, Termina, Some(2), Some(1), (0, 1, 0), 0),
            ev(12, Acaba, Some(2), Some(1), (0, 1, 0), 0),
            ev(13, Empieza, Some(1), Some(1), (0, 0, 0), 1),
            ev(14, Termina, Some(1), Some(1), (0, 0, 0), 1),
            ev(15, Acaba, Some(1), Some(1), (0, 0, 0), 1),
            ev(16, Termina, Some(3), Some(0), (0, 0, 0), 1),
            ev(17, Acaba, Some(3), Some(0), (0, 0, 0), 1),
            ev(18, Cierre, None, None, (0, 0, 0), 1),
        ];
        Grabacion {
            carga: Carga::Robo,
            trabajadores: 2,
            nucleos: 2,
            tokio: "1.54.1".into(),
            orden: "cargo run".into(),
            intentos: 1,
            dormidos_al_empezar: vec![true, true],
            eventos,
        }
    }

    #[test]
    fn cada_paso_dice_lo_que_se_dedujo() {
        let p = pasos(&grabacion());
        let tipos: Vec<&str> = p.iter().map(|p| p.tipo).collect();
        assert_eq!(
            tipos,
            [
                "lanza",
                "despierta",
                "global",
                "lanza",
                "lanza",
                "lanza",
                "acaba",
                "ranura",
                "despierta",
                "robo",
                "sondea",
                "acaba",
                "cierre"
            ]
        );
        assert!(p[2].texto.contains("toma la tarea 0 de la cola global (se lanzó desde fuera"), "{}", p[2].texto);
        assert!(p[5].texto.contains("La tarea 0 lanza la 3: a la ranura LIFO; la 2 pasa a la cola local"));
        assert!(p[6].texto.contains("tras 5 µs, después de lanzar 3 tareas, y termina."), "{}", p[6].texto);
        assert!(p[7].texto.contains("justo después de la 0, que la lanzó la última"), "{}", p[7].texto);
        assert!(
            p[9].texto
                .contains("roba 2 tareas al trabajador 0: sondea ya la última que se llevó, la 2, y deja la otra")
        );
        assert!(p[9].texto.contains("la del trabajador 0, pasó de 2 a 0; la global sigue en 0"), "{}", p[9].texto);
        assert!(p[9].texto.contains("Dura 2 µs y termina"), "{}", p[9].texto);
        assert!(p[10].texto.contains("del frente de su cola local (llegó con el lote del paso 10)"), "{}", p[10].texto);
        assert!(p[10].texto.contains("El trabajador 1 acaba de publicar sus contadores: 4 robadas en 1 robo"));
        assert!(p[11].texto.contains("La tarea 3 acaba su sondeo en el trabajador 0 tras 9 µs y termina."));
        assert!(p[12].texto.contains("el trabajador 1, 4 robadas en 1 robo y 0 desbordes"), "{}", p[12].texto);
        // La 3 se sondea mientras pasan otras cosas: su final no cabe en su paso.
        assert_eq!(p[7].estado.columnas[0].sondea, Some(3));
        assert_eq!(p[9].estado.columnas[0].sondea, Some(3), "el 0 sigue con la 3 mientras el 1 roba");
        assert_eq!(p[11].estado.columnas[0].sondea, None);
        assert_eq!(p[12].columna, None);
        assert_eq!((p[2].movidas, p[9].movidas, p[10].movidas), (1, 2, 0));
        assert!(!p[9].estado.columnas[1].dormido && p[0].estado.columnas[1].dormido);
    }

    #[test]
    fn un_desborde_se_ve_en_las_colas() {
        let mut g = grabacion();
        // Entre el lanzamiento de la 2 y el de la 3, la cola del 0 cae de 256 a 128 y la global sube 129.
        g.eventos[4].muestra.trabajadores[0].cola = 256;
        g.eventos[5].muestra.trabajadores[0].cola = 128;
        g.eventos[5].muestra.global = 129;
        let p = pasos(&g);
        assert_eq!(p[5].tipo, "desborde");
        assert!(p[5].texto.contains("su cola local pasó de 256 a 128 y la global pasó de 0 a 129"), "{}", p[5].texto);
    }

    #[test]
    fn lo_que_no_cuadra_se_dice() {
        let mut g = grabacion();
        // Su cola y la global cambian a la vez sin cuadrar con un robo ni con una toma.
        g.eventos[10].muestra.global = 7;
        g.eventos[9].muestra.global = 3;
        g.eventos[10].muestra.trabajadores[1].cola = 9;
        let p = pasos(&g);
        assert_eq!(p[9].tipo, "sondea");
        assert!(p[9].texto.contains("las muestras no bastan para saber de dónde la sacó"), "{}", p[9].texto);
    }

    #[test]
    fn duraciones_en_espanol() {
        assert_eq!(duracion(1_500), "2 µs");
        assert_eq!(duracion(999_000), "999 µs");
        assert_eq!(duracion(1_234_000), "1,2 ms");
        assert_eq!(duracion(12_960_000), "13,0 ms");
    }
}
