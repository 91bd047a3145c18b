//! Juzgar un capítulo con las variantes ya compiladas y ejecutadas: qué
//! debía pasar, qué debía fallar, y cada cosa que no cuadra como un
//! [`Hallazgo`].

use std::path::{Path, PathBuf};

use super::ejecutar::{Ejecucion, LIMITE, Resultados, correr, inicial_de, listar};
use super::variantes::{Clase, Variante, Variantes, variante};
use crate::error::{Error, Hallazgo, Lugar, Tipo};
use crate::mediciones::coma::cantidades_con_punto;
use crate::modelo::{Curso, Ejercicio};

/// Lo que hace falta para juzgar: las variantes y lo que dieron sus pruebas.
pub struct Juicio<'a> {
    pub curso: &'a Curso,
    pub variantes: &'a Variantes,
    pub resultados: &'a Resultados,
}

/// Lo que se concluye de un capítulo.
#[derive(Default)]
pub struct Veredicto {
    pub problemas: Vec<Hallazgo>,
    /// Una línea por ejercicio verificado.
    pub resumen: Vec<String>,
}

impl Juicio<'_> {
    fn resultado(&self, exe: &Path, pruebas: &[String]) -> Result<Ejecucion, Error> {
        // Las pruebas ya se ejecutaron todas, varias a la vez (`ejecutar_todas`).
        self.resultados
            .get(&(exe.to_path_buf(), pruebas.to_vec()))
            .cloned()
            .unwrap_or_else(|| Err(Error::mensaje(format!("no se ejecutaron las pruebas de {}", exe.display()))))
    }

    /// Juzga el capítulo `capitulo`.
    pub fn capitulo(&self, capitulo: &str) -> Veredicto {
        let mut v = Veredicto::default();
        let del_capitulo: Vec<(usize, &Ejercicio)> =
            self.curso.ejercicios.iter().enumerate().filter(|(_, e)| e.capitulo == capitulo).collect();
        let del_capitulo_de = |clase: &Clase| variante(self.variantes, del_capitulo[0].1, clase);
        let mut problema =
            |tipo, texto: String| v.problemas.push(Hallazgo::con_tipo(Lugar::Capitulo(capitulo.into()), tipo, texto));

        // La solución compila (en la verificación completa; en la esencial no
        // hay variante de la solución y se listan las pruebas del inicial).
        let solucion = del_capitulo_de(&Clase::Solucion);
        if let Some(s) = solucion.filter(|s| s.ejecutable.is_none()) {
            let errores: Vec<&str> = s.errores.iter().map(|e| e.texto.as_str()).collect();
            problema(Tipo::SolucionFalla, format!("la solución de {capitulo} no compila:\n{}", errores.join("\n")));
            return v;
        }
        let exe_solucion = solucion.and_then(|s| s.ejecutable.as_ref());
        let para_listar = solucion.or_else(|| del_capitulo_de(&Clase::Inicial));
        self.pruebas_de_la_lista(capitulo, &del_capitulo, para_listar, &mut problema);
        if let Some(s) = solucion {
            self.demo(capitulo, s, &mut problema);
        }
        let hay_de_compilar = del_capitulo.iter().any(|(_, e)| e.compilar);
        if let Some(inicial) = del_capitulo_de(&Clase::Inicial) {
            inicial_compila(capitulo, inicial, hay_de_compilar, &mut problema);
        }
        for &(i, e) in &del_capitulo {
            let linea = self.ejercicio(i, e, exe_solucion, hay_de_compilar, &mut v.problemas);
            v.resumen.push(linea);
        }
        v
    }

    /// Las pruebas del ejecutable son exactamente las de la lista.
    fn pruebas_de_la_lista(
        &self,
        capitulo: &str,
        del_capitulo: &[(usize, &Ejercicio)],
        para_listar: Option<&Variante>,
        problema: &mut impl FnMut(Tipo, String),
    ) {
        let de_la_lista = || Ok(del_capitulo.iter().flat_map(|(_, e)| e.pruebas.clone()).collect());
        let listado = match para_listar.and_then(|v| Some((v.ejecutable.as_ref()?, &v.dir))) {
            Some((exe, dir)) => listar(exe, dir),
            None => de_la_lista(),
        };
        let todas = match listado {
            Ok(todas) => todas,
            Err(e) => return problema(Tipo::SinVerificar, e.to_string()),
        };
        for prueba in &todas {
            if !del_capitulo.iter().any(|(_, e)| e.pruebas.contains(prueba)) {
                problema(
                    Tipo::PruebasDistintas,
                    format!(
                        "la prueba «{prueba}» de {capitulo} no es de ningún ejercicio: añádela a su lista de pruebas"
                    ),
                );
            }
        }
        for (_, e) in del_capitulo {
            for prueba in e.pruebas.iter().filter(|p| !todas.contains(p)) {
                problema(Tipo::PruebasDistintas, format!("«{}»: la prueba «{prueba}» no existe", e.nombre));
            }
        }
    }

    /// La demo de la solución se ejecuta, termina bien y escribe sus números
    /// con coma decimal, como el libro (la ve quien enseña en clase).
    fn demo(&self, capitulo: &str, solucion: &Variante, problema: &mut impl FnMut(Tipo, String)) {
        let Some(demo) = &solucion.demo else {
            return problema(Tipo::SolucionFalla, format!("solutions/{capitulo} no tiene demo: falta src/main.rs"));
        };
        let paquete = self.curso.ejercicios_de(capitulo).next().map(Ejercicio::paquete_solucion);
        match correr(demo, &solucion.dir, &[], LIMITE) {
            Ok(r) if r.pasan && !r.salida.trim().is_empty() => {
                if let Some((n, linea)) = cantidades_con_punto(&r.salida).first() {
                    let mensaje = format!(
                        "`cargo run -p {}` escribe una cantidad con punto decimal en la línea {n}: «{}». \
                         Escríbela con coma, como el libro (medidas::numero, medidas::duracion)",
                        paquete.unwrap_or_default(),
                        linea.trim()
                    );
                    problema(Tipo::SolucionFalla, mensaje);
                }
            }
            Ok(r) => problema(
                Tipo::SolucionFalla,
                format!("`cargo run -p {}` falla:\n{}", paquete.unwrap_or_default(), r.salida),
            ),
            Err(e) => problema(Tipo::SinVerificar, e.to_string()),
        }
    }

    /// Un ejercicio: la solución pasa sus pruebas, su código inicial (solo él)
    /// las hace fallar y cada respuesta incorrecta conocida también. Devuelve
    /// la línea del resumen.
    fn ejercicio(
        &self,
        i: usize,
        e: &Ejercicio,
        exe_solucion: Option<&PathBuf>,
        hay_de_compilar: bool,
        problemas: &mut Vec<Hallazgo>,
    ) -> String {
        let n = &e.nombre;
        let mut problema =
            |tipo, texto: String| problemas.push(Hallazgo::con_tipo(Lugar::Ejercicio(n.clone()), tipo, texto));
        match exe_solucion.map(|exe| self.resultado(exe, &e.pruebas)) {
            None => {}
            Some(Ok(r)) if r.pasan && r.corridas == e.pruebas.len() => {}
            Some(Ok(r)) => {
                problema(Tipo::SolucionFalla, format!("«{n}»: la solución no pasa sus pruebas:\n{}", r.salida))
            }
            Some(Err(err)) => problema(Tipo::SinVerificar, err.to_string()),
        }
        let mut linea = format!("{n}: ");
        match inicial_de(self.variantes, e, i) {
            Some(v) => linea.push_str(&self.inicial(e, v, hay_de_compilar, &mut problema)),
            None => problema(Tipo::SinVerificar, format!("«{n}»: falta su variante inicial")),
        }
        if let Some(v) = variante(self.variantes, e, &Clase::Sola(i)) {
            self.solo(e, v, &mut problema);
        }
        for incorrecta in &e.incorrectas {
            let Some(v) = variante(self.variantes, e, &Clase::Incorrecta(i, incorrecta.clone())) else { continue };
            match v.ejecutable.as_ref().map(|exe| self.resultado(exe, &e.pruebas)) {
                None => problema(
                    Tipo::IncorrectaNoRechazada,
                    format!("«{n}»: la respuesta incorrecta {incorrecta} ni compila; así no prueba nada"),
                ),
                Some(Ok(r)) if r.pasan => problema(
                    Tipo::IncorrectaNoRechazada,
                    format!("«{n}»: la respuesta incorrecta {incorrecta} pasa las pruebas; faltan pruebas"),
                ),
                Some(Ok(r)) => match self.propiedad_rota(e, incorrecta, &r) {
                    Some(texto) => problema(Tipo::IncorrectaRechazadaPorOtra, texto),
                    None => linea.push_str(&format!("; rechaza {incorrecta}")),
                },
                Some(Err(err)) => problema(Tipo::SinVerificar, err.to_string()),
            }
        }
        linea
    }

    /// Si la respuesta incorrecta dice qué propiedad rompe, alguna prueba de
    /// esa propiedad debe fallar (o no terminar): si la rechaza otra prueba,
    /// la propiedad no está probada. Devuelve el problema, si lo hay.
    fn propiedad_rota(&self, e: &Ejercicio, incorrecta: &str, r: &Ejecucion) -> Option<String> {
        let id = e.leer_incorrecta(&self.curso.raiz, incorrecta).ok()?.rompe?;
        let propiedad = e.propiedad(&id)?;
        if propiedad.pruebas.iter().any(|p| !r.pasadas.contains(p)) {
            return None;
        }
        let fallan: Vec<&str> = e.pruebas.iter().filter(|p| !r.pasadas.contains(*p)).map(String::as_str).collect();
        Some(format!(
            "«{}»: {incorrecta} rompe «{id}», pero ninguna de sus pruebas falla (fallan: {}); la propiedad no está \
             probada por sí misma",
            e.nombre,
            fallan.join(", ")
        ))
    }

    /// Resuelto solo, con sus vecinos sin resolver, el ejercicio pasa sus
    /// pruebas: un vecino a medias no rompe las de otro.
    fn solo(&self, e: &Ejercicio, v: &Variante, problema: &mut impl FnMut(Tipo, String)) {
        let n = &e.nombre;
        let Some(exe) = &v.ejecutable else {
            let primero = v.errores.first().map(|e| e.texto.as_str()).unwrap_or_default();
            return problema(
                Tipo::NoPasaSolo,
                format!("«{n}» resuelto solo (sus vecinos sin resolver) no compila:\n{primero}"),
            );
        };
        match self.resultado(exe, &e.pruebas) {
            Ok(r) if r.pasan && r.corridas == e.pruebas.len() => {}
            Ok(r) => problema(
                Tipo::NoPasaSolo,
                format!(
                    "«{n}» resuelto solo (sus vecinos sin resolver) no pasa sus pruebas; si necesita otro \
                     ejercicio, dilo con `requiere` en la lista:\n{}",
                    r.salida
                ),
            ),
            Err(err) => problema(Tipo::SinVerificar, err.to_string()),
        }
    }

    /// El código inicial de este ejercicio hace fallar sus pruebas (o no
    /// compila, si es «haz que compile»). Devuelve lo que va al resumen.
    fn inicial(
        &self,
        e: &Ejercicio,
        v: &Variante,
        hay_de_compilar: bool,
        problema: &mut impl FnMut(Tipo, String),
    ) -> String {
        let n = &e.nombre;
        // En la verificación esencial, el inicial es el del capítulo entero: si
        // no compila por otro ejercicio «haz que compile», las pruebas de este
        // no se pueden ejecutar. Su fallo propio lo demuestra la completa.
        let solo_el_capitulo = v.clase == Clase::Inicial;
        if e.compilar {
            let senala = v.errores.iter().any(|err| err.archivos.iter().any(|a| Path::new(a).ends_with(&e.archivo)));
            match (v.ejecutable.is_some(), senala) {
                (true, _) => problema(
                    Tipo::InicialCompilaMal,
                    format!("«{n}» es «haz que compile», pero su código inicial compila"),
                ),
                (false, false) => problema(
                    Tipo::InicialCompilaMal,
                    format!("«{n}»: el código inicial no compila, pero el error no está en {}", e.archivo),
                ),
                (false, true) => return "el código inicial no compila".into(),
            }
            return String::new();
        }
        let Some(exe) = &v.ejecutable else {
            if solo_el_capitulo && hay_de_compilar {
                return "el inicial del capítulo no compila (hay un «haz que compile»)".into();
            }
            let primero = v.errores.first().map(|e| e.texto.as_str()).unwrap_or_default();
            problema(Tipo::InicialCompilaMal, format!("«{n}»: con su código inicial, el crate no compila:\n{primero}"));
            return String::new();
        };
        match self.resultado(exe, &e.pruebas) {
            Ok(r) if r.colgada => {
                problema(Tipo::InicialNoFalla, format!("«{n}»: con el código inicial, sus pruebas se cuelgan"))
            }
            Ok(r) if r.pasan => problema(
                Tipo::InicialNoFalla,
                format!("«{n}»: sus pruebas pasan con el código inicial; no pueden fallar"),
            ),
            Ok(r) if r.corridas != e.pruebas.len() => problema(
                Tipo::InicialNoFalla,
                format!("«{n}»: se esperaban {} pruebas y corrieron {}", e.pruebas.len(), r.corridas),
            ),
            Ok(_) => return "el código inicial falla sus pruebas".into(),
            Err(err) => problema(Tipo::SinVerificar, err.to_string()),
        }
        String::new()
    }
}

/// El inicial compila, salvo que tenga un ejercicio «haz que compile».
fn inicial_compila(capitulo: &str, inicial: &Variante, hay_de_compilar: bool, problema: &mut impl FnMut(Tipo, String)) {
    match (inicial.ejecutable.is_some(), hay_de_compilar) {
        (false, false) => problema(
            Tipo::InicialCompilaMal,
            format!(
                "exercises/{capitulo} no compila y ningún ejercicio es «haz que compile»:\n{}",
                inicial.errores.first().map(|e| e.texto.as_str()).unwrap_or_default()
            ),
        ),
        (true, true) => problema(
            Tipo::InicialCompilaMal,
            format!("exercises/{capitulo} compila, pero tiene un ejercicio «haz que compile»"),
        ),
        _ => {}
    }
}

#[cfg(test)]
mod pruebas {
    use std::os::unix::fs::PermissionsExt;

    use super::*;
    use crate::modelo::Hashes;
    use crate::verificacion::variantes::nombre_paquete;

    /// Un «ejecutable de pruebas» que solo sabe listar la prueba `a::uno`.
    fn ejecutable(dir: &Path, nombre: &str) -> PathBuf {
        let ruta = dir.join(nombre);
        std::fs::write(&ruta, "#!/bin/sh\necho 'a::uno: test'\n").unwrap();
        std::fs::set_permissions(&ruta, std::fs::Permissions::from_mode(0o755)).unwrap();
        // Si otro hilo de las pruebas lanzó un proceso mientras se escribía,
        // ejecutarlo puede dar «Text file busy» un instante: se espera a que no.
        for _ in 0..100 {
            if crate::procesos::Proceso::programa(&ruta).salida().is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        ruta
    }

    #[test]
    fn un_inicial_que_pasa_y_una_incorrecta_que_pasa_son_hallazgos_del_ejercicio() {
        let dir = std::env::temp_dir().join(format!("curso-juicio-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = Ejercicio {
            nombre: "a".into(),
            capitulo: "06-x".into(),
            titulo: "Un ejercicio".into(),
            archivo: "src/a.rs".into(),
            compilar: false,
            pruebas: vec!["a::uno".into()],
            pistas: vec!["Una pista".into()],
            requiere: vec![],
            propiedades: vec![],
            incorrectas: vec!["incorrectas/a/mala.patch".into()],
        };
        let curso = Curso::en_memoria(&dir, vec![], vec![e.clone()], Hashes::new());
        let mut variantes = Variantes::new();
        let mut resultados = Resultados::new();
        for (clase, nombre) in [(Clase::Inicial, "inicial"), (Clase::Incorrecta(0, e.incorrectas[0].clone()), "mala")] {
            let exe = ejecutable(&dir, nombre);
            let pasa = Ejecucion {
                pasan: true,
                corridas: 1,
                colgada: false,
                salida: String::new(),
                segundos: 0.1,
                pasadas: ["a::uno".to_string()].into(),
            };
            resultados.insert((exe.clone(), e.pruebas.clone()), Ok(pasa));
            let v =
                Variante { clase: clase.clone(), dir: dir.clone(), ejecutable: Some(exe), demo: None, errores: vec![] };
            variantes.insert(nombre_paquete(&e, &clase), v);
        }
        let veredicto = Juicio { curso: &curso, variantes: &variantes, resultados: &resultados }.capitulo("06-x");
        let clases: Vec<(Lugar, Tipo)> = veredicto.problemas.into_iter().map(|h| (h.lugar, h.tipo)).collect();
        let del_ejercicio = |t| (Lugar::Ejercicio("a".into()), t);
        assert_eq!(clases, [del_ejercicio(Tipo::InicialNoFalla), del_ejercicio(Tipo::IncorrectaNoRechazada)]);
        assert_eq!(veredicto.resumen, ["a: "]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
