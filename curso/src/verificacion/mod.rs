//! Cada ejercicio se prueba a sí mismo.
//!
//! Para cada capítulo con ejercicios se genera, en `target/verificacion/`, un
//! espacio de trabajo aparte con estas variantes ([`variantes`]), que se
//! compilan de una vez ([`compilar`]), se ejecutan ([`ejecutar`]) y se
//! juzgan ([`juicio`]):
//!
//! - la solución tal cual: todas las pruebas de cada ejercicio pasan;
//! - el ejercicio tal cual: compila, salvo que tenga un ejercicio «haz que
//!   compile»;
//! - por cada ejercicio X, la solución con el archivo de X tomado del
//!   ejercicio: las pruebas de X fallan (o, si X es «haz que compile», no
//!   compila, y el error señala el archivo de X). Así cada ejercicio
//!   demuestra su propio fallo, no el de sus vecinos;
//! - por cada respuesta incorrecta de X, la solución con esa respuesta: las
//!   pruebas de X fallan.
//!
//! Las pruebas son siempre las mismas: las de `exercises/NN-.../tests/`.

pub mod compilar;
pub mod ejecutar;
pub mod juicio;
pub mod variantes;

use std::time::Instant;

pub use ejecutar::Ejecucion;

use crate::error::{Hallazgo, Lugar, Tipo};
use crate::modelo::Curso;
use crate::procesos::directorio_target;
use variantes::Clase;

/// Lo que encontró la verificación.
#[derive(Debug, Default)]
pub struct Informe {
    /// Cada cosa que está mal, con el ejercicio o el capítulo.
    pub problemas: Vec<Hallazgo>,
    /// Una línea por ejercicio verificado.
    pub resumen: Vec<String>,
    /// Cuánto tardó cada fase (compilar, cada capítulo).
    pub tiempos: Vec<String>,
}

/// Hasta dónde llega la verificación.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alcance {
    /// Lo que ve quien aprende: con el código inicial de su capítulo, las
    /// pruebas de cada ejercicio fallan (o no compila, si es «haz que
    /// compile»), y son exactamente las de la lista. Es la que corre
    /// `cargo test`: una variante por capítulo. Que la solución pasa esas
    /// mismas pruebas ya lo demuestra `cargo test` al probar `soluciones-NN`,
    /// que usa el mismo archivo de pruebas.
    Esencial,
    /// Además, la solución pasa y su demo se ejecuta, cada ejercicio
    /// demuestra su propio fallo (la solución con solo su archivo tomado del
    /// inicial) y cada respuesta incorrecta conocida falla. Es la que corre `cargo curso mantenimiento comprueba` (y la
    /// integración continua, justo después de `cargo test`).
    Completa,
}

/// Verifica los ejercicios del curso (todos los de `curso.ejercicios`: para
/// verificar unos pocos, [`Curso::con_ejercicios`]).
pub fn verificar(curso: &Curso, alcance: Alcance) -> Informe {
    let mut informe = Informe { problemas: curso.validar(), ..Default::default() };
    if !informe.problemas.is_empty() {
        return informe;
    }
    let mut fallo = |e: crate::Error| {
        informe.problemas.push(Hallazgo::con_tipo(Lugar::Curso, Tipo::SinVerificar, e.to_string()));
    };
    // Un espacio de trabajo por conjunto de capítulos, con un `target/` común:
    // dos verificaciones de capítulos distintos pueden correr a la vez.
    // El mismo `target/` que el resto del curso: las dependencias (Tokio,
    // Rayon...) ya están compiladas con las mismas opciones y no se repiten.
    // Las variantes tienen sus propios nombres de paquete, así que no pisan
    // nada del espacio de trabajo.
    // El espacio de trabajo generado es código fuente, no compilación: vive
    // en `target/verificacion/` de la raíz aunque `CARGO_TARGET_DIR` lleve la
    // compilación a otra parte (así dos copias del curso no se pisan).
    let target = directorio_target(&curso.raiz);
    let numeros: Vec<String> = curso.capitulos_con_ejercicios().iter().filter_map(|c| numero(curso, c)).collect();
    let base = curso.ruta("target/verificacion").join(format!("ws-{}", numeros.join("-")));
    let mut variantes = match variantes::preparar(curso, &base) {
        Ok(v) => v,
        Err(e) => {
            fallo(e);
            return informe;
        }
    };
    // Las demás variantes se escriben igual (así no se borran de una
    // verificación completa anterior), pero no se compilan ni se prueban.
    if alcance == Alcance::Esencial {
        variantes.retain(|_, v| v.clase == Clase::Inicial);
    }
    let inicio = Instant::now();
    if let Err(e) = compilar::compilar(&base, &target, &mut variantes) {
        fallo(e);
        return informe;
    }
    let segundos = inicio.elapsed().as_secs_f64();
    informe.tiempos.push(format!("compilar {} variantes: {segundos:.1} s", variantes.len()));
    let inicio = Instant::now();
    let resultados = ejecutar::ejecutar_todas(curso, &variantes);
    let segundos = inicio.elapsed().as_secs_f64();
    informe.tiempos.push(format!("ejecutar {} pruebas de variantes: {segundos:.1} s", resultados.len()));
    let inicio = Instant::now();
    let juicio = juicio::Juicio { curso, variantes: &variantes, resultados: &resultados };
    for capitulo in curso.capitulos_con_ejercicios() {
        let v = juicio.capitulo(capitulo);
        informe.problemas.extend(v.problemas);
        informe.resumen.extend(v.resumen);
    }
    informe.tiempos.push(format!("listas y demos: {:.1} s", inicio.elapsed().as_secs_f64()));
    informe
}

/// El número de un capítulo con ejercicios, como se escribe (`06`).
fn numero(curso: &Curso, capitulo: &str) -> Option<String> {
    curso.ejercicios_de(capitulo).next().map(|e| e.numero().to_string())
}
