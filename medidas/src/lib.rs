//! Lo que las lecciones usan para medir, en un solo sitio.
//!
//! - Estadística: [`percentil`] (por rango más cercano, lecciones 05, 10,
//!   11, 14 y 18) y [`mediana_y_extremos`] (mediana, mínimo y máximo de unas
//!   repeticiones: lecciones 09, 16, 17 y 18).
//! - `/proc` (solo Linux; en otro sistema, `None`): [`campo_de_proc`] lee
//!   la memoria del proceso de `/proc/self/status` (lecciones 02, 03, 06, 11
//!   y 14), [`hilos_del_proceso`] cuenta sus hilos (lección 03) y
//!   [`numero_de_archivo`] lee un límite del sistema como
//!   `/proc/sys/vm/max_map_count`.
//! - Los límites de hilos de la máquina, [`Limites`]: cuántos hilos deja
//!   crear y por qué (lecciones 02 y 03).
//! - Los números como los escribe el libro, [`numero`]: coma decimal y los
//!   miles separados por un espacio a partir de cinco cifras. Lo usan las
//!   lecciones, las gráficas y `cargo curso`: nada que lea quien aprende
//!   lleva punto decimal. Las duraciones, igual: [`duracion`] («63 ms»,
//!   «1,5 s»), que usan los mensajes de las pruebas de los ejercicios.
//!
//! ```
//! let ordenadas = [10, 20, 30, 40];
//! assert_eq!(medidas::percentil(&ordenadas, 50.0), Some(20));
//! assert_eq!(medidas::percentil(&ordenadas, 99.0), Some(40));
//! assert_eq!(medidas::mediana_y_extremos(&[3.0, 1.0, 4.0, 2.0]), Some((2.5, 1.0, 4.0)));
//! let estado = "VmRSS:\t  1024 kB\nThreads:\t7\n";
//! assert_eq!(medidas::valor_de_campo(estado, "VmRSS"), Some(1024 * 1024));
//! assert_eq!(medidas::valor_de_campo(estado, "Threads"), Some(7));
//! assert_eq!(medidas::numero(4.04, 1), "4,0");
//! assert_eq!(medidas::numero(21121.94, 1), "21 121,9");
//! assert_eq!(medidas::numero(1234.0, 0), "1234");
//! ```

/// Un número como lo escribe el libro: `decimales` cifras tras una coma
/// decimal y, a partir de cinco cifras enteras, los miles separados por un
/// espacio (`21 121,9`; `1234,5`).
pub fn numero(x: f64, decimales: usize) -> String {
    let texto = format!("{:.*}", decimales, x.abs());
    let (entera, fraccion) = texto.split_once('.').map_or((texto.as_str(), None), |(e, f)| (e, Some(f)));
    let agrupada = agrupa_miles(entera);
    let signo = if x < 0.0 && texto.chars().any(|c| c.is_ascii_digit() && c != '0') { "-" } else { "" };
    match fraccion {
        Some(f) => format!("{signo}{agrupada},{f}"),
        None => format!("{signo}{agrupada}"),
    }
}

/// Un entero como lo escribe el libro (`70 000`, `1234`).
pub fn entero(n: u64) -> String {
    numero(n as f64, 0)
}

/// Las cifras de una parte entera con los miles separados por un espacio,
/// a partir de cinco cifras (`21 121`; `1234`).
fn agrupa_miles(entera: &str) -> String {
    if entera.len() < 5 {
        return entera.to_string();
    }
    let mut agrupada = String::new();
    for (i, c) in entera.chars().enumerate() {
        if i > 0 && (entera.len() - i).is_multiple_of(3) {
            agrupada.push(' ');
        }
        agrupada.push(c);
    }
    agrupada
}

/// Una duración como la escribe el libro: la misma unidad y las mismas
/// cifras que `{:?}` (s, ms, µs o ns, sin ceros de más ni redondeo), pero
/// con coma decimal y un espacio antes de la unidad. Para los mensajes que
/// lee quien aprende, donde `{:?}` daría «63ms» o «1.5s».
///
/// ```
/// use std::time::Duration;
/// assert_eq!(medidas::duracion(Duration::from_millis(63)), "63 ms");
/// assert_eq!(medidas::duracion(Duration::from_millis(1500)), "1,5 s");
/// assert_eq!(medidas::duracion(Duration::from_micros(2_250)), "2,25 ms");
/// assert_eq!(medidas::duracion(Duration::from_micros(250)), "250 µs");
/// assert_eq!(medidas::duracion(Duration::ZERO), "0 ns");
/// assert_eq!(medidas::duracion(Duration::from_secs(86_400)), "86 400 s");
/// ```
pub fn duracion(d: std::time::Duration) -> String {
    let depuracion = format!("{d:?}");
    let corte = depuracion.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(depuracion.len());
    let (cifras, unidad) = depuracion.split_at(corte);
    let (entera, fraccion) = cifras.split_once('.').map_or((cifras, None), |(e, f)| (e, Some(f)));
    let entera = agrupa_miles(entera);
    match fraccion {
        Some(f) => format!("{entera},{f} {unidad}"),
        None => format!("{entera} {unidad}"),
    }
}

/// Una duración en milisegundos enteros, como «63 ms» (para un tiempo real
/// que no necesita más cifras: el de una demo, un plazo vencido).
///
/// ```
/// use std::time::Duration;
/// assert_eq!(medidas::milisegundos(Duration::from_micros(63_499)), "63 ms");
/// assert_eq!(medidas::milisegundos(Duration::from_micros(63_500)), "64 ms");
/// assert_eq!(medidas::milisegundos(Duration::from_secs(12)), "12 000 ms");
/// ```
pub fn milisegundos(d: std::time::Duration) -> String {
    format!("{} ms", numero(d.as_secs_f64() * 1e3, 0))
}

/// Varias duraciones como las escribe el libro, en una enumeración: «10 ms,
/// 20 ms y 1,5 s» («ninguna» si no hay).
///
/// ```
/// use std::time::Duration;
/// let v = [Duration::from_millis(10), Duration::from_millis(20), Duration::from_millis(1500)];
/// assert_eq!(medidas::duraciones(&v), "10 ms, 20 ms y 1,5 s");
/// assert_eq!(medidas::duraciones(&v[..1]), "10 ms");
/// assert_eq!(medidas::duraciones(&[]), "ninguna");
/// ```
pub fn duraciones<'a>(lista: impl IntoIterator<Item = &'a std::time::Duration>) -> String {
    let textos: Vec<String> = lista.into_iter().map(|d| duracion(*d)).collect();
    match textos.split_last() {
        None => "ninguna".to_string(),
        Some((ultima, [])) => ultima.clone(),
        Some((ultima, resto)) => format!("{} y {ultima}", resto.join(", ")),
    }
}

/// El percentil `p` (de 0 a 100) de unas muestras ya ordenadas de menor a
/// mayor, por rango más cercano: el menor valor que deja por debajo (o
/// igual) al menos el `p` % de las muestras. Es siempre una de las muestras,
/// nunca una interpolación. `None` si no hay muestras; un `p` de 0 o menos
/// da la más pequeña y uno de más de 100, la más grande.
pub fn percentil<T: Copy>(ordenadas: &[T], p: f64) -> Option<T> {
    if ordenadas.is_empty() {
        return None;
    }
    let rango = (p / 100.0 * ordenadas.len() as f64).ceil();
    // `as usize` lleva NaN y los negativos a 0; el `clamp` los deja en la primera.
    let rango = if rango.is_nan() { 1 } else { (rango as usize).clamp(1, ordenadas.len()) };
    Some(ordenadas[rango - 1])
}

/// La mediana, el mínimo y el máximo de unas medidas, en ese orden; con un
/// número par de medidas, la mediana es la media de las dos centrales.
/// `None` si no hay medidas.
pub fn mediana_y_extremos(medidas: &[f64]) -> Option<(f64, f64, f64)> {
    let mut v = medidas.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let mediana = match n {
        0 => return None,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    };
    Some((mediana, v[0], v[n - 1]))
}

/// Busca `campo:  1234 kB` en un texto como `/proc/self/status` o
/// `/proc/meminfo` y devuelve el valor en bytes (el «kB» del núcleo son
/// KiB). Si el campo no lleva unidad (como `Threads`), devuelve el número tal
/// cual; si no es un número (como `Cpus_allowed_list`), `None`.
pub fn valor_de_campo(texto: &str, campo: &str) -> Option<u64> {
    let linea = texto.lines().find(|l| l.split(':').next() == Some(campo))?;
    let mut partes = linea.split(':').nth(1)?.split_whitespace();
    let numero: u64 = partes.next()?.parse().ok()?;
    match partes.next() {
        Some("kB") => Some(numero * 1024),
        _ => Some(numero),
    }
}

/// Un campo de `/proc/self/status` (`VmRSS`, `VmHWM`, `VmSize`, `Threads`...),
/// en bytes si va en kB. `None` si el sistema no tiene `/proc`.
pub fn campo_de_proc(campo: &str) -> Option<u64> {
    valor_de_campo(&std::fs::read_to_string("/proc/self/status").ok()?, campo)
}

/// Los hilos de este proceso: una entrada por hilo en `/proc/self/task`.
/// `None` si el sistema no tiene `/proc`.
pub fn hilos_del_proceso() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/task").ok()?.count())
}

/// El número que guarda un archivo como `/proc/sys/kernel/threads-max` o
/// `/sys/fs/cgroup/pids.max`. `None` si no existe o no es un número (como
/// el `max` de un cgroup sin límite).
pub fn numero_de_archivo(ruta: &str) -> Option<u64> {
    std::fs::read_to_string(ruta).ok()?.trim().parse().ok()
}

/// Zonas de memoria (*mappings*) que ocupa cada hilo de std en Linux: su
/// pila y la página de guarda de la pila, y la pila alternativa de señales
/// (la que usa el aviso de desbordamiento de pila) con su propia guarda.
pub const ZONAS_POR_HILO: u64 = 4;

/// Zonas que se dejan para el resto del proceso (el ejecutable, las
/// bibliotecas, el montículo, las arenas de malloc...). Un proceso como este
/// usa unos cientos.
pub const ZONAS_PARA_LO_DEMAS: u64 = 2_000;

/// Lo que la máquina deja crear, y de dónde sale cada número.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limites {
    /// `/proc/sys/kernel/threads-max`: hilos en todo el sistema.
    pub threads_max: Option<u64>,
    /// `/proc/sys/kernel/pid_max`: cada hilo gasta un identificador.
    pub pid_max: Option<u64>,
    /// `RLIMIT_NPROC` (límite blando): hilos y procesos de tu usuario.
    /// `None` si es ilimitado o no se puede leer.
    pub rlimit_nproc: Option<u64>,
    /// `pids.max` del cgroup (v2), si lo hay y no es `max`.
    pub pids_max: Option<u64>,
    /// `/proc/sys/vm/max_map_count`: zonas de memoria por proceso. No lo
    /// comparte con otros procesos, pero cada hilo gasta [`ZONAS_POR_HILO`].
    pub max_map_count: Option<u64>,
}

impl Limites {
    /// Lee los límites de esta máquina. Lo que no se puede leer queda en `None`.
    pub fn de_esta_maquina() -> Limites {
        let numero = numero_de_archivo;
        Limites {
            threads_max: numero("/proc/sys/kernel/threads-max"),
            pid_max: numero("/proc/sys/kernel/pid_max"),
            rlimit_nproc: rlimit_nproc(),
            pids_max: numero("/sys/fs/cgroup/pids.max"),
            max_map_count: numero("/proc/sys/vm/max_map_count"),
        }
    }

    /// Cuántos hilos caben en las zonas de memoria de este proceso, dejando
    /// [`ZONAS_PARA_LO_DEMAS`] para lo que no son hilos.
    pub fn hilos_por_zonas(&self) -> Option<u64> {
        self.max_map_count.map(|m| m.saturating_sub(ZONAS_PARA_LO_DEMAS) / ZONAS_POR_HILO)
    }

    /// El límite más estricto de la máquina y su nombre, si se conoce alguno.
    pub fn mas_estricto(&self) -> Option<(u64, &'static str)> {
        [
            (self.threads_max, "threads-max"),
            (self.pid_max, "pid_max"),
            (self.rlimit_nproc, "RLIMIT_NPROC"),
            (self.pids_max, "pids.max"),
        ]
        .into_iter()
        .filter_map(|(v, nombre)| v.map(|v| (v, nombre)))
        .min_by_key(|(v, _)| *v)
    }

    /// Cuántos hilos se permite crear una lección: la mitad del límite más
    /// estricto de los que comparte con otros procesos (la otra mitad queda
    /// para ellos), no más de los que caben en sus zonas de memoria
    /// (`max_map_count`, que es solo de este proceso) y nunca más de `tope`,
    /// el suyo propio. Pasar de `max_map_count` no da un error que se pueda
    /// atender: el hilo nuevo no puede preparar su pila alternativa de
    /// señales y aborta el proceso entero.
    pub fn permitidos(&self, tope: u64) -> u64 {
        let compartidos = self.mas_estricto().map_or(tope, |(v, _)| v / 2);
        let por_zonas = self.hilos_por_zonas().unwrap_or(tope);
        compartidos.min(por_zonas).min(tope)
    }

    /// Comprueba que se pueden crear `n` hilos sin pasar de `tope`; si no,
    /// el mensaje en español.
    pub fn admite(&self, n: u64, tope: u64) -> Result<(), String> {
        if n <= self.permitidos(tope) {
            return Ok(());
        }
        if let (Some(zonas), Some(caben)) = (self.max_map_count, self.hilos_por_zonas())
            && caben == self.permitidos(tope)
            && caben < tope
        {
            return Err(format!(
                "pides {} hilos, pero en esta máquina vm.max_map_count es {}: cada hilo ocupa \
                 {ZONAS_POR_HILO} zonas de memoria (su pila y la pila alternativa de señales, cada una con \
                 su página de guarda) y, dejando {ZONAS_PARA_LO_DEMAS} para lo demás, caben {}. \
                 Pasar de ahí no da un error: el proceso aborta",
                entero(n),
                entero(zonas),
                entero(caben)
            ));
        }
        Err(match self.mas_estricto() {
            Some((v, nombre)) if v / 2 < tope => format!(
                "pides {} hilos, pero en esta máquina {nombre} es {}; la lección usa como mucho \
                 la mitad, {}, para no dejar sin hilos al resto del sistema",
                entero(n),
                entero(v),
                entero(v / 2)
            ),
            _ => format!("pides {} hilos; la lección no pasa de {}", entero(n), entero(tope)),
        })
    }

    /// Una línea para imprimir: qué límites se encontraron.
    pub fn describe(&self) -> String {
        let v = |x: Option<u64>, sin: &str| x.map_or(sin.to_string(), entero);
        format!(
            "threads-max {}, pid_max {}, RLIMIT_NPROC {}, pids.max {}, max_map_count {}",
            v(self.threads_max, "(no se puede leer)"),
            v(self.pid_max, "(no se puede leer)"),
            v(self.rlimit_nproc, "ilimitado"),
            v(self.pids_max, "(sin límite)"),
            v(self.max_map_count, "(no se puede leer)"),
        )
    }
}

/// El límite blando de `RLIMIT_NPROC`, o `None` si es ilimitado.
#[allow(clippy::unnecessary_cast)] // `rlim_t` no es `u64` en todas las plataformas
fn rlimit_nproc() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: `r` es nuestro y válido; getrlimit solo escribe en él.
        if unsafe { libc::getrlimit(libc::RLIMIT_NPROC, &mut r) } != 0 || r.rlim_cur == libc::RLIM_INFINITY {
            return None;
        }
        Some(r.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn percentil_por_rango_mas_cercano() {
        let cien: Vec<u64> = (1..=100).collect();
        assert_eq!(percentil(&cien, 50.0), Some(50));
        assert_eq!(percentil(&cien, 99.0), Some(99));
        assert_eq!(percentil(&cien, 100.0), Some(100));
        assert_eq!(percentil(&[1, 2, 3], 99.0), Some(3));
        assert_eq!(percentil(&[7], 50.0), Some(7));
        assert_eq!(percentil::<u32>(&[], 50.0), None);
        // Un `p` fuera de (0, 100] no se sale de las muestras.
        assert_eq!(percentil(&cien, 0.0), Some(1));
        assert_eq!(percentil(&cien, -5.0), Some(1));
        assert_eq!(percentil(&cien, f64::NAN), Some(1));
        assert_eq!(percentil(&cien, 250.0), Some(100));
        let ms: Vec<std::time::Duration> = (1..=4).map(std::time::Duration::from_millis).collect();
        assert_eq!(percentil(&ms, 50.0), Some(std::time::Duration::from_millis(2)));
    }

    #[test]
    fn mediana_pares_e_impares() {
        assert_eq!(mediana_y_extremos(&[3.0, 1.0, 2.0]), Some((2.0, 1.0, 3.0)));
        assert_eq!(mediana_y_extremos(&[4.0, 1.0, 2.0, 3.0]), Some((2.5, 1.0, 4.0)));
        assert_eq!(mediana_y_extremos(&[]), None);
    }

    #[test]
    fn campos_con_y_sin_unidad() {
        let estado = "Name:\tx\nVmSize:\t  4096 kB\nVmRSS:\t  1024 kB\nThreads:\t7\nCpus_allowed_list:\t0-1\n";
        assert_eq!(valor_de_campo(estado, "VmSize"), Some(4096 * 1024));
        assert_eq!(valor_de_campo(estado, "VmRSS"), Some(1024 * 1024));
        assert_eq!(valor_de_campo(estado, "Threads"), Some(7));
        assert_eq!(valor_de_campo(estado, "VmHWM"), None);
        assert_eq!(valor_de_campo(estado, "Cpus_allowed_list"), None);
    }

    #[test]
    fn limites_de_hilos() {
        const TOPE: u64 = 20_000;
        // La máquina de referencia: el primer límite es el de las zonas de memoria.
        let l = Limites {
            threads_max: Some(192_730),
            pid_max: Some(32_768),
            rlimit_nproc: Some(96_365),
            pids_max: None,
            max_map_count: Some(65_530),
        };
        assert_eq!(l.mas_estricto(), Some((32_768, "pid_max")));
        assert_eq!(l.hilos_por_zonas(), Some(15_882));
        assert_eq!(l.permitidos(TOPE), 15_882);
        assert!(l.admite(15_882, TOPE).is_ok());
        let e = l.admite(16_384, TOPE).unwrap_err();
        assert!(e.contains("max_map_count es 65 530") && e.contains("caben 15 882"), "{e}");
        // Con max_map_count alto, manda pid_max.
        let sin_zonas = Limites { max_map_count: Some(1_048_576), ..l.clone() };
        assert_eq!(sin_zonas.permitidos(TOPE), 16_384);
        let e = sin_zonas.admite(16_385, TOPE).unwrap_err();
        assert!(e.contains("pid_max es 32 768") && e.contains("16 384"), "{e}");
        let holgado = Limites {
            threads_max: Some(1_000_000),
            pid_max: Some(4_194_304),
            rlimit_nproc: None,
            pids_max: None,
            max_map_count: Some(1_048_576),
        };
        assert_eq!(holgado.permitidos(TOPE), TOPE);
        assert!(holgado.admite(20_001, TOPE).unwrap_err().contains("no pasa de 20 000"));
        let nada =
            Limites { threads_max: None, pid_max: None, rlimit_nproc: None, pids_max: None, max_map_count: None };
        assert_eq!(nada.permitidos(TOPE), TOPE);
        let estrecho = Limites {
            threads_max: None,
            pid_max: None,
            rlimit_nproc: Some(4_096),
            pids_max: Some(1_000),
            max_map_count: Some(65_530),
        };
        assert_eq!(estrecho.mas_estricto(), Some((1_000, "pids.max")));
        assert_eq!(estrecho.permitidos(TOPE), 500);
    }

    #[test]
    fn proc_de_este_proceso() {
        if std::path::Path::new("/proc/self/status").exists() {
            assert!(campo_de_proc("VmRSS").unwrap() > 0);
            assert!(hilos_del_proceso().unwrap() >= 1);
        } else {
            assert_eq!(campo_de_proc("VmRSS"), None);
        }
    }
}
